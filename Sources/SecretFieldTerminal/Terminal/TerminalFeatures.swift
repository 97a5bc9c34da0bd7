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

  /// The kitty keyboard protocol, for the caps-lock state: the prompt asks
  /// (`CSI ? u`, then `CSI c`) without waiting for the answer, and where the
  /// terminal speaks the protocol pushes flags 1, 8 and 16
  /// (``KeyboardFlags/passwordPrompt``), popped on every way out. Not a mode
  /// set with raw mode: the prompt's loop runs the handshake.
  public static let keyboardProtocol = TerminalFeatures(rawValue: 1 << 2)

  /// What a password prompt wants: all three.
  public static let prompt: TerminalFeatures = [
    .bracketedPaste, .focusReporting, .keyboardProtocol,
  ]
}
