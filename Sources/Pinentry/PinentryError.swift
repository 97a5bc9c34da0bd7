public import SecureMemory

/// Why a pinentry session could not go on talking to its client.
///
/// These end the session; what the client did wrong (an unknown command, a
/// line too long) is answered with an ``AssuanError`` instead, and the session
/// goes on.
public struct PinentryError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  public let details: ErrorDetails<PinentryError>

  /// An error that says `details`.
  public init(details: ErrorDetails<PinentryError>) { self.details = details }

  static func read(_ error: SecureMemoryError) -> Self {
    Self(.readFailed, errno: error.errno, "reading from the Assuan client failed: \(error)")
  }

  static func write(_ error: SecureMemoryError) -> Self {
    Self(.writeFailed, errno: error.errno, "writing to the Assuan client failed: \(error)")
  }

  static func memory(_ error: SecureMemoryError) -> Self {
    Self(.secureMemoryUnavailable, errno: error.errno, error.description)
  }
}

extension ErrorCode where Failure == PinentryError {
  /// Reading the client's requests failed.
  public static var readFailed: Self { Self() }
  /// Writing a response to the client failed (the client went away: `EPIPE`).
  public static var writeFailed: Self { Self() }
  /// A buffer for the passphrase or the protocol lines could not be had.
  public static var secureMemoryUnavailable: Self { Self() }
}
