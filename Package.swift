// swift-tools-version: 6.2
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode, and imports internal unless a
/// file says otherwise, so no C module leaks into a public interface.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "SecretField",
  products: [
    .library(name: "SecureMemory", targets: ["SecureMemory"]),
    .library(name: "SecretSources", targets: ["SecretSources"]),
    .library(name: "SecretField", targets: ["SecretField"]),
    .library(name: "SecretFieldTerminal", targets: ["SecretFieldTerminal"]),
    .library(name: "ScreenRecording", targets: ["ScreenRecording"]),
    .library(name: "Pinentry", targets: ["Pinentry"]),
    .library(name: "PinentryTerminal", targets: ["PinentryTerminal"]),
    .library(name: "PasswordAgent", targets: ["PasswordAgent"]),
    .executable(name: "secretfield", targets: ["secretfield"]),
    .executable(name: "secretfield-askpass", targets: ["secretfield-askpass"]),
    .executable(name: "pinentry-secretfield", targets: ["pinentry-secretfield"]),
    .executable(name: "secretfield-window", targets: ["secretfield-window"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSodium",
      pkgConfig: "libsodium",
      providers: [.apt(["libsodium-dev"]), .yum(["libsodium-devel"]), .brew(["libsodium"])]
    ),
    // What Swift cannot call directly: `rep movsb`, `repne scasb`, and system
    // calls glibc offers only as variadic functions or under `_GNU_SOURCE`.
    .target(name: "CSystemShims"),
    // The system calls the modules share (one errno type, one write-all, one
    // spawn, one wait), at `package` access: no product.
    .target(name: "SystemCalls", dependencies: ["CSystemShims"], swiftSettings: swiftSettings),
    .target(
      name: "SecureMemory", dependencies: ["CSodium", "CSystemShims", "SystemCalls"],
      swiftSettings: swiftSettings),
    .target(
      name: "SecretSources", dependencies: ["SecureMemory", "SystemCalls"],
      swiftSettings: swiftSettings),
    // The word lists of the strength estimate, as data: one graph in a C
    // string literal (Scripts/generate-password-lists.py; NOTICE.md names
    // the source and its licence).
    .target(name: "CPasswordLists", exclude: ["NOTICE.md"]),
    .target(
      name: "SecretField", dependencies: ["SecureMemory", "CPasswordLists"],
      swiftSettings: swiftSettings),
    // PipeWire's registry, read with libpipewire loaded at run time (dlopen):
    // nothing needs PipeWire to build or to run. Only ScreenRecording uses it.
    .target(name: "CPipeWire"),
    // Whether the screen or the session is recorded: for every front end.
    .target(
      name: "ScreenRecording", dependencies: ["CPipeWire", "SystemCalls"],
      swiftSettings: swiftSettings),
    .target(
      name: "SecretFieldTerminal",
      dependencies: [
        "SecretField", "ScreenRecording", "SecretSources", "SecureMemory", "SystemCalls",
        "CSystemShims",
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "Pinentry", dependencies: ["SecretField", "SecureMemory", "SystemCalls"],
      swiftSettings: swiftSettings),
    .target(
      name: "PinentryTerminal",
      dependencies: [
        "Pinentry", "SecretFieldTerminal", "SecretField", "SecureMemory", "SystemCalls",
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "PasswordAgent", dependencies: ["SecureMemory", "SystemCalls"],
      swiftSettings: swiftSettings),
    // What every executable of the package shares, the window's included:
    // the process start, exit statuses, streams, argument parsing, the choice
    // between terminal and window, the askpass's caller, the pinentry's
    // program and git's credential helper. No product.
    .target(
      name: "ToolSupport",
      dependencies: [
        "PinentryTerminal", "Pinentry", "SecretFieldTerminal", "SecretField", "SecureMemory",
        "SystemCalls", "CSystemShims",
      ],
      swiftSettings: swiftSettings),
    // The commands as testable code, not API: no product, nothing public; what
    // the executables and tests call is `package`.
    .target(
      name: "SecretFieldCLI",
      dependencies: [
        "ToolSupport", "SecretFieldTerminal", "SecretSources", "Pinentry", "PinentryTerminal",
        "PasswordAgent", "SecretField", "SecureMemory", "SystemCalls", "CSystemShims",
      ],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "secretfield", dependencies: ["SecretFieldCLI"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "secretfield-askpass", dependencies: ["SecretFieldCLI"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "pinentry-secretfield", dependencies: ["SecretFieldCLI"],
      swiftSettings: swiftSettings),
    // The window front end (GTK 4), its own program: no library product and
    // no terminal tool depends on it, so they build with libsodium alone.
    // secretfield-askpass execs it from the same directory when there is no
    // terminal and there is a display.
    .systemLibrary(
      name: "CGtk",
      pkgConfig: "gtk4",
      providers: [.apt(["libgtk-4-dev"]), .yum(["gtk4-devel"])]
    ),
    .target(
      name: "SecretFieldWindow",
      dependencies: [
        "CGtk", "ToolSupport", "ScreenRecording", "SecretField", "SecureMemory", "SystemCalls",
        "Pinentry", "PinentryTerminal",
      ],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "secretfield-window", dependencies: ["SecretFieldWindow"],
      swiftSettings: swiftSettings),
    // An example client: encrypts and decrypts a file under a passphrase with
    // KeyDerivation, SecretStream and the prompt. Built and run by ExampleTests.
    .executableTarget(
      name: "file-vault",
      dependencies: ["SecretFieldTerminal", "SecretSources", "SecureMemory"],
      path: "Examples/FileVault",
      swiftSettings: swiftSettings
    ),
    // An example client: a two-field login form on the terminal. Run by
    // ExampleTests on a pty.
    .executableTarget(
      name: "login-form",
      dependencies: ["SecretFieldTerminal", "SecretField", "SecureMemory"],
      path: "Examples/LoginForm",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TestSupport",
      dependencies: ["SecureMemory"],
      path: "Tests/TestSupport",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "PTYSupport", dependencies: ["TestSupport"], path: "Tests/PTYSupport",
      swiftSettings: swiftSettings),
    // zxcvbn-c, the C port of zxcvbn: the oracle of the strength tests and the
    // baseline of the strength benchmarks. No product links it.
    .systemLibrary(
      name: "CZxcvbn", path: "Benchmarks/CZxcvbn", providers: [.apt(["libzxcvbn-dev"])]),
    // Counts malloc/calloc/realloc calls for the benchmarks' allocation figures
    // and the tests that pin the key path's (KeyPathAllocationTests).
    .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
    .executableTarget(
      name: "SecretFieldBenchmarks",
      // The three tools: built beside the benchmark
      // binary, where the terminal benchmarks start them on a pty.
      dependencies: [
        "SecretField", "SecretFieldTerminal", "ScreenRecording", "SecureMemory", "CSodium",
        "CSystemShims", "AllocationCounter", "CZxcvbn",
        "secretfield", "secretfield-askpass", "pinentry-secretfield",
      ],
      path: "Benchmarks/SecretFieldBenchmarks",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "pty-probe",
      dependencies: ["SecretFieldTerminal", "SecretField", "ScreenRecording", "SecureMemory"],
      path: "Tests/PTYProbe",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ScreenRecordingTests",
      dependencies: ["ScreenRecording", "TestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SecretFieldTerminalTests",
      dependencies: [
        "SecretFieldTerminal", "ScreenRecording", "SecretSources", "SecretField", "SecureMemory",
        "TestSupport",
        "PTYSupport", "pty-probe", "AllocationCounter",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SecretFieldCLITests",
      dependencies: [
        "SecretFieldCLI", "ToolSupport", "SecretFieldTerminal", "SecretField", "SecureMemory",
        "PTYSupport", "TestSupport",
        "secretfield", "secretfield-askpass",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SecretSourcesTests",
      dependencies: ["SecretSources", "SecureMemory", "TestSupport", "PTYSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SecureMemoryTests",
      dependencies: ["SecureMemory", "TestSupport", "AllocationCounter"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PasswordAgentTests",
      dependencies: [
        "PasswordAgent", "SecretFieldCLI", "ToolSupport", "SecureMemory", "TestSupport",
        "PTYSupport",
        "secretfield",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SecretFieldTests",
      dependencies: ["SecretField", "SecureMemory", "TestSupport", "CZxcvbn"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ExampleTests",
      dependencies: ["SecureMemory", "TestSupport", "PTYSupport", "file-vault", "login-form"],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "PinentryScripted",
      dependencies: ["Pinentry", "SecretField", "SecureMemory"],
      path: "Tests/PinentryScripted",
      swiftSettings: swiftSettings
    ),
    // The Assuan side alone, driven by a scripted front end: no terminal code linked.
    .testTarget(
      name: "PinentryProtocolTests",
      dependencies: ["Pinentry", "SecretField", "SecureMemory", "TestSupport"],
      swiftSettings: swiftSettings
    ),
    // The window under Xvfb (xdotool) and a headless sway (wtype, grim); runs
    // when GTK, Xvfb, xdotool and ImageMagick are installed, on Wayland too
    // when sway, wtype and grim are.
    .testTarget(
      name: "SecretFieldWindowTests",
      dependencies: [
        "TestSupport", "secretfield-window", "secretfield-askpass",
        "pinentry-secretfield", "secretfield",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PinentryTests",
      dependencies: [
        "SecretFieldCLI", "ToolSupport", "Pinentry", "PinentryTerminal", "SecretFieldTerminal",
        "SecureMemory",
        "TestSupport",
        "PTYSupport",
        "PinentryScripted", "pinentry-secretfield", "secretfield-window",
      ],
      swiftSettings: swiftSettings
    ),
  ]
)
