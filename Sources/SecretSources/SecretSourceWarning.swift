public import SecureMemory

/// Something a ``SecretSource`` did not refuse but the user should know: a
/// secret file that others can read, as ssh warns about loose key files; a
/// secret that could not be cached in the kernel keyring.
///
/// Compare by ``code``; show ``description``.
public struct SecretSourceWarning: Sendable, Equatable, CustomStringConvertible {
  /// What kind of warning this is. Compare with the static members.
  public typealias Code = ErrorCode<SecretSourceWarning>

  /// What kind of warning this is.
  public let code: Code
  /// The file it is about (the key's name, for `Code.notCached`).
  public let path: String
  /// A sentence that says what is loose and how to tighten it.
  public let description: String

  static func notCached(name: String, because cause: String) -> Self {
    Self(
      code: .notCached, path: name,
      description: "the secret was not cached under '\(name)': \(cause)")
  }

  static func cacheRemoved(name: String) -> Self {
    Self(
      code: .cacheRemoved, path: name,
      description: "the passphrase cached under '\(name)' was wrong and was removed")
  }

  static func readableByOthers(path: String, permissions: UInt32) -> Self {
    Self(
      code: .readableByOthers, path: path,
      description:
        "\(path) can be read by \(SecretSourceError.others(permissions, writable: false)) (mode "
        + "\(String(permissions, radix: 8))); make it private with chmod 600")
  }
}

extension ErrorCode where Failure == SecretSourceWarning {
  /// The file can be read by its group or by others.
  public static var readableByOthers: Self { Self() }
  /// The secret could not be cached in the kernel keyring (or the cache
  /// could not be read); ``SecretSourceWarning/path`` is the key's name.
  public static var notCached: Self { Self() }
  /// What was cached under the key failed the caller's check and was
  /// removed; ``SecretSourceWarning/path`` is the key's name.
  public static var cacheRemoved: Self { Self() }
}
