import Foundation
import Glibc
import PTYSupport
import TestSupport

extension TerminalSession {
  /// Waits until a line starts with `prompt` and shows `count` masks after it.
  @discardableResult
  func waitForMasks(_ count: Int, after prompt: String) throws -> ScreenSnapshot {
    let line = prompt + " " + String(repeating: "•", count: count)
    return try waitForScreen("\(count) masks after \(prompt)") { screen in
      screen.lines.contains { $0 == line }
    }
  }
}
