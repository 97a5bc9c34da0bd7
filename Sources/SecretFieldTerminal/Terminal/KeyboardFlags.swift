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
