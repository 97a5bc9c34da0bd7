/// The terminal modes a prompt has changed and must change back: the record a
/// ``TerminalDevice`` keeps so that every exit path restores exactly these.
///
/// Each flag is set only after the change was sent to the terminal, and cleared
/// when it was undone; an empty record means the terminal is as it was found.
public struct TerminalModes: Sendable, Hashable, CustomStringConvertible {
  /// The termios were switched to raw mode (`tcsetattr`); the originals are kept
  /// by the device.
  public var isRaw: Bool = false
  /// Bracketed paste (`CSI ? 2004 h`) was turned on.
  public var bracketedPaste: Bool = false
  /// Focus reporting (`CSI ? 1004 h`) was turned on.
  public var focusReporting: Bool = false
  /// Kitty keyboard flags pushed onto the terminal's stack (`CSI > flags u`),
  /// to be popped (`CSI < u`); nil when none were pushed.
  public var pushedKeyboardFlags: KeyboardFlags? = nil

  /// A record of no change at all.
  public init() {}

  /// True when nothing needs restoring.
  public var isEmpty: Bool { self == TerminalModes() }

  /// A list such as `raw, bracketed paste`, or `none`.
  public var description: String {
    var parts: [String] = []
    if isRaw { parts.append("raw") }
    if bracketedPaste { parts.append("bracketed paste") }
    if focusReporting { parts.append("focus reporting") }
    if let flags = pushedKeyboardFlags { parts.append("keyboard flags \(flags.rawValue)") }
    return parts.isEmpty ? "none" : parts.joined(separator: ", ")
  }
}

/// Which reports a prompt asks the terminal for while it is in raw mode.
public struct TerminalFeatures: OptionSet, Sendable, Hashable {
  /// The raw value: one bit per feature.
  public let rawValue: Int
  /// A set from its raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Pastes arrive between `CSI 200~` and `CSI 201~` (`CSI ? 2004 h`), so a
  /// paste is one edit and a pasted newline does not submit.
  public static let bracketedPaste = TerminalFeatures(rawValue: 1 << 0)
  /// The terminal reports focus in and out as `CSI I` and `CSI O`
  /// (`CSI ? 1004 h`).
  public static let focusReporting = TerminalFeatures(rawValue: 1 << 1)

  /// What a password prompt wants: both.
  public static let prompt: TerminalFeatures = [.bracketedPaste, .focusReporting]
}

/// Flags of the kitty keyboard protocol, as pushed with `CSI > flags u`.
public struct KeyboardFlags: OptionSet, Sendable, Hashable {
  /// The raw value, as the protocol numbers the flags.
  public let rawValue: Int
  /// Flags from their raw value.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Keys that are ambiguous in the legacy encoding (Esc, Alt+key, Ctrl+key)
  /// arrive as `CSI … u`.
  public static let disambiguate = KeyboardFlags(rawValue: 1)
  /// Press, repeat and release are reported.
  public static let reportEventTypes = KeyboardFlags(rawValue: 2)
  /// Shifted and base-layout keys are reported beside the key.
  public static let reportAlternateKeys = KeyboardFlags(rawValue: 4)
  /// Every key, text keys included, arrives as an escape code; only with this
  /// flag does the terminal report the lock modifiers (caps lock) for text keys.
  public static let reportAllKeysAsEscapeCodes = KeyboardFlags(rawValue: 8)
  /// The text a key produces arrives as the third field of `CSI … u`.
  public static let reportAssociatedText = KeyboardFlags(rawValue: 16)

  /// What a password prompt pushes to learn the caps-lock state: 1, 8 and 16.
  public static let passwordPrompt: KeyboardFlags = [
    .disambiguate, .reportAllKeysAsEscapeCodes, .reportAssociatedText,
  ]
}
