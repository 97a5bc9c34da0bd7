import SecureMemory
package import SecretFieldTerminal

extension ExitStatus {
  /// The status of a prompt that could not ask: 3 when the terminal is
  /// missing or unusable (none to open, not a terminal, its modes, a read or
  /// a write failed), 1 for anything else.
  package init(_ error: TerminalError) {
    switch error.code {
    case .noTerminal, .notATerminal, .terminalModesFailed, .writeFailed, .readFailed:
      self = .noTerminal
    default:
      self = .cancelled
    }
  }
}
