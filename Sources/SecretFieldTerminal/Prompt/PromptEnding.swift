public import SecureMemory

/// Why a prompt ended without a password: what ``PromptResult/secret()``
/// throws.
///
/// Unlike ``PromptResult`` it carries no secret, so it is an ordinary copyable
/// value that can be thrown, matched with several patterns in one `case`, and
/// kept.
///
/// ```swift
/// do {
///   let password = try PasswordPrompt(configuration).run().secret()
/// } catch let ending as PromptEnding {
///   // .cancelled(.escape), .timedOut, .hungUp, .confirmationFailed(attempts:)
/// }
/// ```
public enum PromptEnding: Error, Sendable, Hashable, CustomStringConvertible {
  /// The user cancelled, by the key named.
  case cancelled(PromptCancellation)
  /// The prompt's timeout ran out.
  case timedOut
  /// The terminal went away (end of file, or `EIO` from a hung-up terminal).
  case hungUp
  /// The entries of a confirmation differed this many times.
  case confirmationFailed(attempts: Int)
  /// The asker took the question back (``PromptWithdrawal``).
  case withdrawn

  /// What happened, in words for the end user.
  public var description: String {
    switch self {
    case .cancelled(.escape): "cancelled (Esc)"
    case .cancelled(.interrupt): "cancelled (Ctrl-C)"
    case .cancelled(.endOfInput): "cancelled: the input ended before a password was given"
    case .timedOut: "timed out waiting for the password"
    case .hungUp: "the terminal went away before the password was entered"
    case .confirmationFailed(let attempts):
      "the two entries differed \(attempts) times; nothing was taken"
    case .withdrawn: "the question was withdrawn by the program that asked it"
    }
  }
}

extension PromptResult {
  /// The password, or why there is none as an error: consumes the result.
  ///
  /// Makes a prompt one line, in a function or at the top level of
  /// `main.swift` alike: `let password = try PasswordPrompt(c).run().secret()`.
  /// The buffer moves out of the result; nothing is copied.
  ///
  /// - Throws: ``PromptEnding`` for every case but ``submitted(_:)``.
  public consuming func secret() throws(PromptEnding) -> SecureBuffer {
    switch consume self {
    case .submitted(let secret): return secret
    case .cancelled(let key): throw .cancelled(key)
    case .timedOut: throw .timedOut
    case .hungUp: throw .hungUp
    case .confirmationFailed(let attempts): throw .confirmationFailed(attempts: attempts)
    case .withdrawn: throw .withdrawn
    }
  }

  /// Why the prompt ended without a password; nil for ``submitted(_:)``.
  public var ending: PromptEnding? {
    switch self {
    case .submitted: nil
    case .cancelled(let key): .cancelled(key)
    case .timedOut: .timedOut
    case .hungUp: .hungUp
    case .confirmationFailed(let attempts): .confirmationFailed(attempts: attempts)
    case .withdrawn: .withdrawn
    }
  }
}
