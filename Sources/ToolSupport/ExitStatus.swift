package import SecretField

/// How a command ended, as the process's exit status: the table every tool of
/// the package keeps.
///
/// | status | meaning |
/// |---|---|
/// | 0 | success: the secret was written, the password matched |
/// | 1 | cancelled by the user, or the command could not finish (the message says why) |
/// | 2 | usage error: unknown option, missing argument, malformed hash |
/// | 3 | no terminal to prompt on (or it went away), or standard output is a terminal for a command that would print the secret there |
/// | 4 | the password does not match; confirmation failed too many times |
/// | 124 | timed out |
///
/// A fatal signal (INT, TERM, HUP...) is not a status: the prompt restores the
/// terminal and the process dies by the same signal, so the shell sees it.
package struct ExitStatus: Sendable, Hashable, CustomStringConvertible {
  /// The number the process exits with.
  package let code: Int32

  /// A status of `code`.
  package init(code: Int32) { self.code = code }

  /// 0: done.
  package static let success = ExitStatus(code: 0)
  /// 1: the user cancelled, or the command failed without a status of its own.
  package static let cancelled = ExitStatus(code: 1)
  /// 2: the command line (or a hash given on it) is wrong.
  package static let usageError = ExitStatus(code: 2)
  /// 3: no terminal to prompt on, or standard output is one.
  package static let noTerminal = ExitStatus(code: 3)
  /// 4: no match.
  package static let mismatch = ExitStatus(code: 4)
  /// 124: the timeout ran out, as `timeout(1)` reports it.
  package static let timedOut = ExitStatus(code: 124)

  /// The status of an entry that ended without an answer, the one mapping
  /// every tool shares: 124 timed out, 3 the terminal or display went away, 4
  /// confirmations that never matched, 1 cancelled, declined or withdrawn.
  package init(_ ending: EntryEnding) {
    switch ending {
    case .timedOut: self = .timedOut
    case .hungUp: self = .noTerminal
    case .confirmationFailed: self = .mismatch
    case .cancelled, .declined, .withdrawn: self = .cancelled
    }
  }

  /// The number, as in `124`.
  package var description: String { String(code) }
}
