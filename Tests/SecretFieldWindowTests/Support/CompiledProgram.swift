import Foundation
import Glibc
import TestSupport

/// A C program the tests compile for themselves with `cc` (and the flags
/// `pkg-config` gives for `packages`), in a temporary directory of its own
/// that is removed when the value is released: tests that run at once never
/// share a file.
final class CompiledProgram {
  /// The executable.
  let path: String
  private let directory: String

  init(name: String, source: String, packages: [String] = []) throws {
    directory = try makeTemporaryDirectory(prefix: "sfc.")
    path = directory + "/" + name
    let sourcePath = path + ".c"
    try source.write(toFile: sourcePath, atomically: false, encoding: .utf8)
    let flags =
      packages.isEmpty ? "" : " $(pkg-config --cflags --libs \(packages.joined(separator: " ")))"
    let run = try runProgram([
      "sh", "-c", "cc -O1 -Wall -o \"$1\" \"$2\"" + flags, "sh", path, sourcePath,
    ])
    guard run.status == 0 else {
      try? FileManager.default.removeItem(atPath: directory)
      throw WindowTestError(description: "building \(name): \(run.error)")
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }
}
