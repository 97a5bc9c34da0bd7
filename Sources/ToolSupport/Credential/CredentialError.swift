package import SecureMemory

/// Why `secretfield credential` did not do what git asked, in words a user
/// can act on. Nothing of a secret is ever in it: the request's lines are
/// named by number and key, never quoted.
///
/// Compare by ``code``; show ``description``. Each code has its exit status
/// (``status``); nothing is cached and nothing is written to git when one is
/// thrown.
package struct CredentialError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  package let details: ErrorDetails<CredentialError>

  /// An error that says `details`.
  package init(details: ErrorDetails<CredentialError>) { self.details = details }

  /// The status the command exits with: 124 for the input deadline, 1 for
  /// every other failure.
  package var status: ExitStatus {
    code == .inputTimedOut ? .timedOut : .cancelled
  }
}

extension CredentialError {
  static func malformed(line: Int, _ why: String) -> Self {
    Self(
      .malformedLine,
      "line \(line) of the request is not a key=value line (\(why)); git sends one "
        + "attribute a line, such as host=example.com")
  }

  static func nul(line: Int) -> Self {
    Self(
      .nulByte,
      "line \(line) of the request holds a NUL byte, which git's credential protocol never "
        + "carries; nothing was done")
  }

  static func valueTooLong(line: Int, key: String) -> Self {
    Self(
      .valueTooLong,
      "the value of \(key) on line \(line) is longer than \(CredentialRequest.valueLimit / 1024) "
        + "KiB; nothing was done")
  }

  static func requestTooLong() -> Self {
    Self(
      .requestTooLong,
      "the request is longer than \(CredentialRequest.requestLimit / 1024) KiB without a blank "
        + "line; nothing was done")
  }

  static func duplicate(_ key: String, line: Int) -> Self {
    Self(
      .duplicateKey,
      "\(key) is given twice (again on line \(line)); git sends each attribute once, so "
        + "nothing was done")
  }

  static func missing(_ key: String, for operation: String) -> Self {
    Self(
      .missingKey,
      "the request has no \(key)=, which \(operation) needs; git sends it (for a "
        + "test by hand: protocol=https, host=example.com, then a blank line)")
  }

  static func invalid(_ key: String, line: Int, _ why: String) -> Self {
    Self(.invalidValue, "the value of \(key) on line \(line) cannot be taken: \(why)")
  }

  static func lineBreak(in what: String) -> Self {
    Self(
      .lineBreak,
      "the \(what) holds a line break or a NUL byte, which git's credential protocol would "
        + "split or cut; nothing was written and nothing cached")
  }

  static func timedOut(after seconds: String) -> Self {
    Self(
      .inputTimedOut,
      "the request did not end (with a blank line or the end of input) within \(seconds) s; "
        + "nothing was done (--input-timeout changes the wait)")
  }
}

extension ErrorCode where Failure == CredentialError {
  /// A line without `=`, or with nothing before it.
  package static var malformedLine: Self { Self() }
  /// A NUL byte in the request, which the protocol never carries.
  package static var nulByte: Self { Self() }
  /// A value longer than ``CredentialRequest/valueLimit``.
  package static var valueTooLong: Self { Self() }
  /// A request longer than ``CredentialRequest/requestLimit`` in all.
  package static var requestTooLong: Self { Self() }
  /// A key given twice (an array key, ending in `[]`, may repeat).
  package static var duplicateKey: Self { Self() }
  /// A key the operation needs is missing (`protocol`, `host`; for
  /// `store`, `username` and `password`).
  package static var missingKey: Self { Self() }
  /// A value that cannot be taken: not UTF-8, a `url` that holds a
  /// password or has no protocol, a `password_expiry_utc` that is no
  /// number.
  package static var invalidValue: Self { Self() }
  /// A user name or password with a line break or a NUL in it, which the
  /// protocol would split or cut.
  package static var lineBreak: Self { Self() }
  /// The request did not end (a blank line, or end of input) before the
  /// input deadline.
  package static var inputTimedOut: Self { Self() }
  /// Reading standard input failed.
  package static var readFailed: Self { Self() }
  /// Secure memory for the request or the answer could not be had.
  package static var secureMemoryFailed: Self { Self() }
  /// The kernel keyring refused to cache, read or remove.
  package static var cacheFailed: Self { Self() }
  /// The answer could not be written to git.
  package static var writeFailed: Self { Self() }
}
