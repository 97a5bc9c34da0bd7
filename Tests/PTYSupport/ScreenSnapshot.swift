/// What the terminal emulator shows, and the modes it is in.
public struct ScreenSnapshot: Sendable, CustomStringConvertible {
  /// Grows by one with each chunk of output the emulator took in.
  public var version: Int
  /// The visible lines, trailing spaces removed.
  public var lines: [String]
  /// The lines scrolled off the top, oldest first.
  public var scrollback: [String]
  /// The cursor's row and column, from 0.
  public var cursorRow: Int
  /// The cursor's column, from 0.
  public var cursorColumn: Int
  /// Bracketed paste (`CSI ? 2004 h`) is on.
  public var bracketedPaste: Bool
  /// Focus reporting (`CSI ? 1004 h`) is on.
  public var focusReporting: Bool
  /// The kitty keyboard flags pushed and not popped, bottom first.
  public var keyboardFlags: [Int]
  /// Every kitty keyboard sequence received (`>9`, `<`, `?`), in order.
  public var keyboardLog: [String]
  /// Everything the terminal was sent, as text (invalid UTF-8 replaced), even
  /// what was drawn over since: the record of what was ever shown.
  public var transcript: String = ""

  /// True when `text` is on a visible line or in the scrollback.
  public func contains(_ text: String) -> Bool {
    lines.contains { $0.contains(text) } || scrollback.contains { $0.contains(text) }
  }

  /// True when `text` is on a visible line.
  public func shows(_ text: String) -> Bool {
    lines.contains { $0.contains(text) }
  }

  /// The visible line the cursor is on.
  public var cursorLine: String { lines.indices.contains(cursorRow) ? lines[cursorRow] : "" }

  /// The screen's lines, for a failing expectation.
  public var description: String {
    let body = (scrollback + ["--- screen ---"] + lines).enumerated()
      .map { "  |\($0.element)" }.joined(separator: "\n")
    return "screen v\(version), cursor (\(cursorRow), \(cursorColumn)):\n\(body)"
  }
}
