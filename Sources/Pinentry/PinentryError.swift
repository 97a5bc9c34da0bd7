import SecureMemory

/// Why a pinentry session could not go on talking to its client.
///
/// These end the session; what the client did wrong (an unknown command, a
/// line too long) is answered with an ``AssuanError`` instead, and the session
/// goes on.
public struct PinentryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. Compare with the static members.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case readFailed, writeFailed, secureMemoryUnavailable
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// Reading the client's requests failed.
    public static let readFailed = Code(.readFailed)
    /// Writing a response to the client failed (the client went away: `EPIPE`).
    public static let writeFailed = Code(.writeFailed)
    /// A buffer for the passphrase or the protocol lines could not be had.
    public static let secureMemoryUnavailable = Code(.secureMemoryUnavailable)

    /// The code's name, as in `writeFailed`.
    public var description: String { value.rawValue }
  }

  /// What kind of failure this is.
  public let code: Code
  /// The `errno` the kernel reported, where it reported one.
  public let errno: Int32?
  /// A sentence that says what happened.
  public let description: String

  init(_ code: Code, errno: Int32? = nil, _ description: String) {
    self.code = code
    self.errno = errno
    self.description = description
  }

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
