/// How an entry ended without an answer, in any front end: the one type the
/// prompt, the form, the confirmation, the pinentry and the window share, with
/// one mapping to exit statuses and one to Assuan errors.
///
/// It carries no secret, so it is an ordinary value that can be thrown,
/// matched with several patterns in one `case`, and kept.
///
/// A signal that ends the process (INT, TERM, HUP...) is not an ending: the
/// front end restores the terminal and the process dies by the same signal,
/// so the shell sees it.
public enum EntryEnding: Error, Sendable, Hashable, CustomStringConvertible {
  /// The user cancelled, in the way named.
  case cancelled(EntryCancellation)
  /// The user answered no: a confirmation's No, or a not-OK button.
  case declined
  /// The entry's timeout ran out.
  case timedOut
  /// The terminal or the display went away (end of file, `EIO` from a
  /// hung-up terminal, the display server gone).
  case hungUp
  /// The program that asked took the question back.
  case withdrawn
  /// The entries of a confirmation differed this many times.
  case confirmationFailed(attempts: Int)

  /// What happened, in words for the end user.
  public var description: String {
    switch self {
    case .cancelled(.escape): "cancelled (Esc)"
    case .cancelled(.interrupt): "cancelled (Ctrl-C)"
    case .cancelled(.endOfInput): "cancelled: the input ended before a password was given"
    case .cancelled(.button): "cancelled"
    case .declined: "declined"
    case .timedOut: "timed out waiting for the password"
    case .hungUp: "the terminal or display went away before the password was entered"
    case .confirmationFailed(let attempts):
      "the two entries differed \(attempts) times; nothing was taken"
    case .withdrawn: "the question was withdrawn by the program that asked it"
    }
  }
}
