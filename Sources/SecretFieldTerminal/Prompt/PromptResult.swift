public import SecureMemory

/// How a ``PasswordPrompt`` ended.
///
/// On submit the result owns the password in a `SecureBuffer`
/// (exactly its UTF-8 bytes, no newline), and is `~Copyable` so the secret has
/// one owner: take it with ``secret()`` (which throws a ``PromptEnding`` for
/// the other cases), or with `switch consume result` inside a function.
/// Dropping the result wipes it. Every other case carries no secret.
public enum PromptResult: ~Copyable {
  /// The user pressed Enter; this is what was typed (possibly empty). Under
  /// confirmation, both entries matched.
  case submitted(SecureBuffer)
  /// The user cancelled, by the key named.
  case cancelled(PromptCancellation)
  /// ``PromptConfiguration/timeout`` ran out.
  case timedOut
  /// The terminal went away (end of file, or `EIO` from a hung-up terminal).
  case hungUp
  /// The caller took the question back (``PromptWithdrawal``) before an answer.
  case withdrawn
  /// The entries of a confirmation differed this many times, the most
  /// ``PromptConfiguration/Confirmation/maximumAttempts`` allows.
  case confirmationFailed(attempts: Int)

  /// True for ``submitted(_:)``.
  public var isSubmitted: Bool {
    switch self {
    case .submitted: true
    default: false
    }
  }
}

/// Which key cancelled a prompt. A pinentry tells them apart: Ctrl-C cancels
/// the whole request, Esc only this dialog.
public enum PromptCancellation: Sendable, Hashable {
  /// Esc, alone.
  case escape
  /// Ctrl-C.
  case interrupt
  /// Ctrl-D on an empty field, or the end of standard input before any byte.
  case endOfInput
}
