/// Why a sealed stream could not be started or opened, in words a user can act
/// on.
///
/// Compare by ``code``; read ``description`` to a user.
public struct SecretStreamError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is. Compare with the static members.
  public typealias Code = ErrorCode<SecretStreamError>

  /// What kind of failure this is.
  public let code: Code
  /// For `secureMemoryFailed`: the underlying error, with its `errno`.
  public let secureMemoryError: SecureMemoryError?
  /// A sentence that says what happened and what to do about it.
  public let description: String

  init(_ code: Code, secureMemoryError: SecureMemoryError? = nil, _ description: String) {
    self.code = code
    self.secureMemoryError = secureMemoryError
    self.description = description
  }
}

extension SecretStreamError {
  static func invalidKey(count: Int) -> Self {
    Self(
      .invalidKey,
      "the stream's key has \(count) bytes; crypto_secretstream_xchacha20poly1305 takes exactly "
        + "\(SecretStream.keyByteCount): derive it with KeyDerivation.deriveKey(from:byteCount: 32)"
    )
  }

  static func invalidHeader(count: Int) -> Self {
    Self(
      .invalidHeader,
      "the stream's header (\(count) bytes) is not one libsodium can start from: it takes the "
        + "\(SecretStream.headerByteCount) bytes the sealer wrote before the first chunk")
  }

  static func chunkNotAuthenticated() -> Self {
    Self(
      .chunkNotAuthenticated,
      "a chunk of the stream does not authenticate: the data was changed or reordered, or the "
        + "key (the passphrase) is wrong; nothing of that chunk was decrypted")
  }

  static func truncated() -> Self {
    Self(
      .truncated,
      "the stream ends before its final chunk: the data was cut short; what came before is "
        + "authentic but incomplete")
  }

  static func dataAfterFinalChunk() -> Self {
    Self(
      .dataAfterFinalChunk,
      "data follows the stream's final chunk: something was appended to it")
  }

  static func secureMemoryFailed(_ error: SecureMemoryError) -> Self {
    Self(.secureMemoryFailed, secureMemoryError: error, error.description)
  }
}

extension ErrorCode where Failure == SecretStreamError {
  /// The key is not 32 bytes long.
  public static var invalidKey: Self { Self() }
  /// The stream's header is not 24 bytes long, or libsodium rejects it.
  public static var invalidHeader: Self { Self() }
  /// A chunk does not authenticate: changed, out of order, from another
  /// stream, or sealed under another key (libsodium cannot tell these apart).
  public static var chunkNotAuthenticated: Self { Self() }
  /// The input ended before the final chunk: the stream was cut short.
  public static var truncated: Self { Self() }
  /// A chunk came after the final one.
  public static var dataAfterFinalChunk: Self { Self() }
  /// Secure memory for the stream's state or its plaintext could not be had;
  /// ``SecretStreamError/secureMemoryError`` says why.
  public static var secureMemoryFailed: Self { Self() }
}
