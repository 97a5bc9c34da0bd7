import Glibc

/// Why the kernel keyring could not cache or hand back a passphrase, in words a
/// user can act on.
///
/// Compare by `code`; show `description`. Where the kernel said why,
/// `errno` carries its code. A caller that caches for convenience (a prompt)
/// goes on without the cache and asks: the password is never lost because the
/// cache failed.
public struct KeyringError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  public let details: ErrorDetails<KeyringError>

  /// An error that says `details`.
  public init(details: ErrorDetails<KeyringError>) { self.details = details }
}

extension KeyringError {
  /// The error for a failed key call on the key called `name`.
  static func failed(_ failure: Kernel.Keyring.Failure, name: String) -> Self {
    let cause = "\(failure.call): \(Kernel.describe(failure.errno))"
    switch failure.errno {
    case EPERM, ENOSYS:
      let why =
        failure.errno == ENOSYS
        ? "the kernel has no key retention service (CONFIG_KEYS), or a sandbox hides it"
        : "a container's or sandbox's seccomp filter blocks the key system calls "
          + "(Docker's default profile does)"
      return Self(
        .unreachable, errno: failure.errno,
        "the kernel keyring cannot be reached (\(cause)): \(why); nothing can be cached here, "
          + "so the passphrase is asked for each time")
    case EDQUOT:
      let quota = Kernel.Keyring.quota
      let keys = quota.keys.map { "\($0) keys" } ?? "a number of keys"
      let bytes = quota.bytes.map { "\($0) bytes" } ?? "a number of bytes"
      return Self(
        .quotaExceeded, errno: failure.errno,
        "the kernel's key quota for this user is used up (\(cause)): at most \(keys) and "
          + "\(bytes) in all (\(quota.files)); forget passphrases cached under other names "
          + "(secretfield forget NAME; keyctl show @u lists them), or raise the limits with "
          + "sysctl kernel.keys.maxkeys and kernel.keys.maxbytes")
    case EACCES:
      return Self(
        .accessDenied, errno: failure.errno,
        "a key named '\(name)' is in the user keyring, but its permissions keep this process "
          + "out (\(cause)); see them with keyctl describe, remove the key with keyctl unlink, "
          + "or cache under another name")
    default:
      return Self(
        .systemCallFailed, errno: failure.errno,
        "the kernel keyring refused the key '\(name)' (\(cause))")
    }
  }

  static func payloadTooLarge(name: String, count: Int) -> Self {
    Self(
      .payloadTooLarge,
      "the passphrases cached under '\(name)' would take \(count) bytes, over the kernel's "
        + "limit of \(Kernel.Keyring.userPayloadLimit) bytes for a key of type user; forget "
        + "the key first (secretfield forget \(name)), or cache a shorter passphrase")
  }

  static func invalidName(_ name: String) -> Self {
    Self(
      .invalidName,
      "'\(name)' cannot name a key: give 1 to \(Kernel.Keyring.descriptionLimit) bytes "
        + "without a NUL byte, such as cryptsetup or backup")
  }

  static func emptySecret() -> Self {
    Self(
      .invalidSecret,
      "an empty passphrase cannot be cached: the kernel refuses an empty key of type user")
  }

  static func secretWithNul() -> Self {
    Self(
      .invalidSecret,
      "a passphrase that holds a NUL byte cannot be cached: NUL separates the passphrases "
        + "cached under one name")
  }

  static func secureMemory(_ error: SecureMemoryError) -> Self {
    Self(
      .secureMemoryUnavailable, errno: error.errno,
      "the cached passphrase could not be read into secure memory: \(error.description)")
  }
}

extension ErrorCode where Failure == KeyringError {
  /// The key system calls fail with `EPERM` or `ENOSYS`: a container's or
  /// sandbox's seccomp filter blocks them, or the kernel has no keys.
  public static var unreachable: Self { Self() }
  /// The user's key quota is used up (`EDQUOT`): too many keys, or bytes.
  public static var quotaExceeded: Self { Self() }
  /// The passphrases under one name would exceed the kernel's 32,767 bytes
  /// for a key of type `user`.
  public static var payloadTooLarge: Self { Self() }
  /// A key of that name exists whose permissions keep this process out
  /// (`EACCES`).
  public static var accessDenied: Self { Self() }
  /// The name is empty, too long, or holds a NUL byte.
  public static var invalidName: Self { Self() }
  /// The passphrase cannot be cached: it is empty, or holds a NUL byte.
  public static var invalidSecret: Self { Self() }
  /// Secure memory to read the key into could not be had.
  public static var secureMemoryUnavailable: Self { Self() }
  /// Another failure of a key system call; `KeyringError.errno` says which.
  public static var systemCallFailed: Self { Self() }
}
