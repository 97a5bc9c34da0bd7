/// A message shown on the terminal, with nothing asked: for the askpass's
/// `SSH_ASKPASS_PROMPT=none` ("Confirm user presence for key ..."), which ssh
/// shows while it waits for a security key to be touched.
///
/// It changes no terminal mode, so nothing needs restoring however the process
/// ends.
public struct TerminalNotice: Sendable {
  /// The message: one line or several. Control characters show as `?`, so a
  /// message from elsewhere cannot send escape sequences.
  public var message: String
  /// The terminal to show it on: the controlling terminal by default.
  public var terminalPath = TerminalDevice.controllingTerminalPath

  /// A notice of `message`.
  public init(message: String) {
    self.message = message
  }

  /// The message as written: its lines, cleaned, each ended by `CR LF`.
  var screenText: String {
    var lines = message.split(separator: "\n", omittingEmptySubsequences: false)
    while lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
    return lines.map { DisplayText.sanitized(String($0)) + ControlSequence.newline }.joined()
  }

  /// Writes the message on a line of its own (or several).
  ///
  /// - Throws: ``TerminalError``: `noTerminal` or `notATerminal` when there is no
  ///   terminal, `writeFailed` when writing fails.
  /// - Complexity: one `open`, one `write`.
  public func show() throws(TerminalError) {
    let terminal = try TerminalDevice(path: terminalPath)
    try terminal.write(screenText)
  }
}
