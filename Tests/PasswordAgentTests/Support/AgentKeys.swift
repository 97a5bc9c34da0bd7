import Foundation
import Glibc
import PTYSupport
import TestSupport

/// Keys as a terminal sends them, one write each.
enum Key {
  static let escape = "\u{1B}"
  static let left = "\u{1B}[D"
  static let right = "\u{1B}[C"
  static let home = "\u{1B}[H"
  static let end = "\u{1B}[F"
  static let delete = "\u{1B}[3~"
  static let backspace = "\u{7F}"
  static let tab = "\t"
  static let enter = "\r"
}

/// True when this process may read the memory of a process that is not
/// dumpable: root with `CAP_SYS_PTRACE` in its effective set.
let canReadHardenedProcesses: Bool = {
  guard getuid() == 0, let status = try? readText("/proc/self/status") else { return false }
  let line = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }
  let mask = line.flatMap {
    UInt64($0.dropFirst("CapEff:".count).drop { $0 == "\t" || $0 == " " }, radix: 16)
  }
  return (mask ?? 0) & (1 << 19) != 0
}()

extension TerminalSession {
  /// What the program wrote to standard error, once it closed it.
  func standardError() throws -> String {
    String(decoding: try capturedOutput(stream: 2), as: UTF8.self)
  }

  /// What the program wrote to standard output, once it closed it.
  func standardOutput() throws -> String {
    String(decoding: try capturedOutput(stream: 1), as: UTF8.self)
  }

  /// Waits until a line starts with `prompt` and shows `count` masks after it.
  @discardableResult
  func waitForMasks(_ count: Int, after prompt: String) throws -> ScreenSnapshot {
    let line = prompt + " " + String(repeating: "•", count: count)
    return try waitForScreen("\(count) masks after \(prompt)") { screen in
      screen.lines.contains { $0 == line }
    }
  }
}
