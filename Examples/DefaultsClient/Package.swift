// swift-tools-version: 6.2
import PackageDescription

// A client of the library that uses only its public products and their
// defaults, as a new user would: a form, a prompt, a pinentry session and a
// source. `check.py` types a password into each on a pseudo-terminal and
// scans the process's memory from outside, as root reads it.
//
//   swift build -c release && sudo python3 check.py .build/release/defaults-client
let package = Package(
  name: "DefaultsClient",
  dependencies: [.package(name: "SecretField", path: "../..")],
  targets: [
    .executableTarget(
      name: "defaults-client",
      dependencies: [
        .product(name: "SecretFieldTerminal", package: "SecretField"),
        .product(name: "SecretSources", package: "SecretField"),
        .product(name: "Pinentry", package: "SecretField"),
        .product(name: "PinentryTerminal", package: "SecretField"),
        .product(name: "SecureMemory", package: "SecretField"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
