// swift-tools-version: 6.2
import PackageDescription

// libFuzzer targets for SecretField's formats, one executable per format, as
// swift-protobuf's FuzzTesting/ does. Build (from this directory):
//
//   swift build -c release --sanitize=fuzzer --sanitize=address
//
// (`-Xswiftc -sanitize=fuzzer` fails to link under SwiftPM.) `Scripts/fuzz`
// builds and runs them all; README.md here says how to add one.
//
// Only the main package's library products can be imported here. A format
// whose parser is internal needs the smallest public entry point first.

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "FuzzTesting",
  dependencies: [
    .package(name: "SecretField", path: "..")
  ],
  targets: [
    // Reading a fuzzer's bytes as choices, and failing loudly.
    .target(name: "FuzzSupport", swiftSettings: swiftSettings),
    // The terminal's key decoder against an ECMA-48 tokenizer of its own.
    .executableTarget(
      name: "FuzzKeyDecoder",
      dependencies: [
        "FuzzSupport",
        .product(name: "SecretFieldTerminal", package: "SecretField"),
        .product(name: "SecureMemory", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // The pinentry's Assuan session: every reply a valid line.
    .executableTarget(
      name: "FuzzAssuanSession",
      dependencies: [
        "FuzzSupport",
        .product(name: "Pinentry", package: "SecretField"),
        .product(name: "SecretField", package: "SecretField"),
        .product(name: "SecureMemory", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // The field's editing against a String oracle.
    .executableTarget(
      name: "FuzzSecretField",
      dependencies: [
        "FuzzSupport",
        .product(name: "SecretField", package: "SecretField"),
        .product(name: "SecureMemory", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // The password agent's request file, scanned in a directory of its own.
    .executableTarget(
      name: "FuzzPasswordRequest",
      dependencies: [
        "FuzzSupport",
        .product(name: "PasswordAgent", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // --password-from specifications and the command word splitter.
    .executableTarget(
      name: "FuzzSecretSourceSpecification",
      dependencies: [
        "FuzzSupport",
        .product(name: "SecretSources", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // What a source reads from outside: datagrams, environment blocks.
    .executableTarget(
      name: "FuzzSecretSourceInput",
      dependencies: [
        "FuzzSupport",
        .product(name: "SecretSources", package: "SecretField"),
        .product(name: "SecureMemory", package: "SecretField"),
      ],
      swiftSettings: swiftSettings),
    // Add a target per format here: an executable named Fuzz<Format>,
    // Dictionaries/Fuzz<Format>.dict, Corpus/Fuzz<Format>/, FailCases/Fuzz<Format>/;
    // Scripts/fuzz finds it by that name.
  ]
)
