/// The terminal modes a prompt has changed and must change back: the record a
/// ``TerminalDevice`` keeps so that every exit path restores exactly these.
///
/// Each flag is set only after the change was sent to the terminal, and cleared
/// when it was undone; an empty record means the terminal is as it was found.
package struct TerminalModes: Sendable, Hashable, CustomStringConvertible {
  /// The termios were switched to raw mode (`tcsetattr`); the originals are kept
  /// by the device.
  package var isRaw: Bool = false
  /// Bracketed paste (`CSI ? 2004 h`) was turned on.
  package var bracketedPaste: Bool = false
  /// Focus reporting (`CSI ? 1004 h`) was turned on.
  package var focusReporting: Bool = false
  /// Kitty keyboard flags pushed onto the terminal's stack (`CSI > flags u`),
  /// to be popped (`CSI < u`); nil when none were pushed.
  package var pushedKeyboardFlags: KeyboardFlags? = nil

  /// A record of no change at all.
  package init() {}

  /// True when nothing needs restoring.
  package var isEmpty: Bool { self == TerminalModes() }

  /// A list such as `raw, bracketed paste`, or `none`.
  package var description: String {
    var parts: [String] = []
    if isRaw { parts.append("raw") }
    if bracketedPaste { parts.append("bracketed paste") }
    if focusReporting { parts.append("focus reporting") }
    if let flags = pushedKeyboardFlags { parts.append("keyboard flags \(flags.rawValue)") }
    return parts.isEmpty ? "none" : parts.joined(separator: ", ")
  }
}
