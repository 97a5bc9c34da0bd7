import Foundation
import Glibc

/// One line of the window's frame log (`SECRETFIELD_TEST_FRAME_LOG`): what a
/// dialog showed after it painted a frame. Counts and flags, never a
/// character of the field.
struct Frame: CustomStringConvertible {
  /// The line's `key=value` fields.
  let fields: [String: String]
  let description: String

  init(_ line: String) {
    description = line
    var fields: [String: String] = [:]
    for part in line.split(separator: " ") {
      guard let equals = part.firstIndex(of: "=") else { continue }
      fields[String(part[..<equals])] = String(part[part.index(after: equals)...])
    }
    self.fields = fields
  }

  private func number(_ key: String) -> Int { Int(fields[key] ?? "") ?? -1 }

  /// The process that drew it.
  var processID: Int { number("pid") }
  /// The dialog's number in its process.
  var dialog: Int { number("dialog") }
  /// `password`, `confirmation` or `message`.
  var kind: String { fields["kind"] ?? "" }
  /// The field's characters (masked or revealed cells).
  var cells: Int { number("cells") }
  /// The caret's cell.
  var caret: Int { number("caret") }
  /// The cells shown as themselves.
  var revealed: Int { number("revealed") }
  /// Whether the field has the keyboard focus (the window is active).
  var isFocused: Bool { fields["focused"] == "1" }
  /// `password`, `username` or `none`: which field has the focus.
  var focus: String { fields["focus"] ?? "" }
  /// Whether the Caps Lock line is shown.
  var showsCapsLock: Bool { fields["capslock"] == "1" }
  /// Whether the recorder line is shown.
  var showsRecording: Bool { fields["recording"] == "1" }
  /// Whether the notice line (an error, a refusal) is shown.
  var showsNotice: Bool { fields["notice"] == "1" }
  /// What the display protects, as the dialog's line says it
  /// (`x11-keyboard-held`, `wayland-shortcuts-inhibited`...).
  var protection: String { fields["protection"] ?? "" }
}

/// Reads a display's frame log as the windows append to it: each wait is
/// for the next line, after the last one waited for, that a condition holds
/// for. The log is the window's own account, written once a frame was
/// painted, so a test waits for it instead of for a time.
final class FrameLogReader {
  let path: String
  /// Lines already passed by a wait.
  private var consumed = 0

  init(path: String) { self.path = path }

  /// Every line so far.
  func all() -> [Frame] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { Frame(String($0)) }
  }

  /// Waits (up to 180 s, a guard against a window that never draws it) for
  /// the first line after the last one waited for that `condition` holds
  /// for, and returns it; the lines up to it are passed.
  @discardableResult
  func next(_ what: String, where condition: (Frame) -> Bool) throws -> Frame {
    let deadline = ContinuousClock.now + .seconds(180)
    while true {
      let frames = all()
      if let index = frames.indices.dropFirst(consumed).first(where: { condition(frames[$0]) }) {
        consumed = index + 1
        return frames[index]
      }
      guard ContinuousClock.now < deadline else {
        let recent = frames.suffix(5).map(\.description).joined(separator: "\n")
        throw WindowTestError(description: "no frame showed \(what); the last ones:\n\(recent)")
      }
      usleep(10_000)
    }
  }
}
