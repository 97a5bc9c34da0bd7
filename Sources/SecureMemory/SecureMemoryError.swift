import Glibc

/// Why secure memory could not do what was asked, in words a user can act on.
///
/// Compare by `code`; read `description` to a user. Where the kernel said why,
/// `errno` carries its code.
public struct SecureMemoryError: CodedError {
  /// What it says: its code, the `errno` where there is one, its sentence.
  public let details: ErrorDetails<SecureMemoryError>

  /// An error that says `details`.
  public init(details: ErrorDetails<SecureMemoryError>) { self.details = details }
}

extension SecureMemoryError {
  static func libsodiumUnavailable() -> Self {
    Self(
      .libsodiumUnavailable,
      "libsodium failed to initialise (sodium_init); secure memory is unavailable")
  }

  static func allocationFailed(capacity: Int, errno: Int32) -> Self {
    let hint =
      errno == ENOMEM
      ? "; the process is out of memory or of memory mappings (vm.max_map_count): free other "
        + "buffers, or raise `ulimit -v` or `sysctl vm.max_map_count`"
      : ""
    return Self(
      .allocationFailed, errno: errno,
      "could not map \(capacity) bytes of guarded memory: \(Kernel.describe(errno))\(hint)")
  }

  static func lockFailed(errno: Int32) -> Self {
    let limit = Kernel.lockedMemoryLimit.map(formatBytes) ?? "unlimited"
    return Self(
      .lockFailed, errno: errno,
      "could not lock secret memory in RAM (\(Kernel.describe(errno))): the locked memory limit "
        + "(RLIMIT_MEMLOCK) is \(limit); raise it with `ulimit -l` or in /etc/security/limits.conf")
  }

  /// `memfd_secret` itself failed.
  static func secretMemoryFileFailed(errno: Int32) -> Self {
    switch errno {
    case ENOSYS:
      Self(
        .secretMemoryUnavailable, errno: errno,
        "this kernel does not offer secret memory (memfd_secret: \(Kernel.describe(errno))): it "
          + "needs Linux 5.14 or later, booted with `secretmem.enable=1` before 6.5; allocate with "
          + "`storage: .strongestAvailable` to fall back to sodium memory, which root can read")
    case EPERM, EACCES:
      // The kernel has the call (it would say ENOSYS otherwise) but a seccomp
      // filter (a container's or a service's sandbox) answers in its place.
      Self(
        .secretMemoryUnavailable, errno: errno,
        "secret memory is forbidden by a sandbox (memfd_secret: \(Kernel.describe(errno))): a "
          + "seccomp filter refuses the call; allow memfd_secret in the container's or service's "
          + "profile, or allocate with `storage: .strongestAvailable` to fall back to sodium "
          + "memory, which root can read")
    case EMFILE, ENFILE:
      Self(
        .allocationFailed, errno: errno,
        "could not create secret memory (memfd_secret: \(Kernel.describe(errno))): the process "
          + "is out of file descriptors for a moment; close some, or raise `ulimit -n`")
    default:
      Self(
        .allocationFailed, errno: errno,
        "could not create secret memory (memfd_secret): \(Kernel.describe(errno))")
    }
  }

  /// The `mmap` of a secret-memory file failed: the kernel checks the locked
  /// memory limit there (`EAGAIN`), and `ENOMEM` is the limit or the mappings.
  static func secretMemoryMappingFailed(byteCount: Int, errno: Int32) -> Self {
    guard errno == EAGAIN || errno == ENOMEM else {
      return .allocationFailed(capacity: byteCount, errno: errno)
    }
    let limit = Kernel.lockedMemoryLimit.map(formatBytes) ?? "unlimited"
    let mappings =
      errno == ENOMEM
      ? ", or the process is out of memory mappings (`sysctl vm.max_map_count`)" : ""
    return Self(
      .lockFailed, errno: errno,
      "could not map \(formatBytes(UInt64(byteCount))) of secret memory "
        + "(\(Kernel.describe(errno))): secret memory is locked in RAM and counts against the "
        + "locked memory limit (RLIMIT_MEMLOCK), which is \(limit)\(mappings); raise it with "
        + "`ulimit -l` or in /etc/security/limits.conf, free other secrets, or allocate with "
        + "`storage: .strongestAvailable` to fall back to sodium memory")
  }

  static func guardPagesMissing(errno: Int32) -> Self {
    Self(
      .guardPagesMissing, errno: errno,
      "the guard pages around a sodium_malloc buffer could not be kept "
        + "(\(Kernel.describe(errno))): the "
        + "process is out of memory mappings (vm.max_map_count); free other buffers or raise "
        + "`sysctl vm.max_map_count`")
  }

  static func protectionFailed(_ what: String, errno: Int32) -> Self {
    Self(.protectionFailed, errno: errno, "\(what) did not take effect: \(Kernel.describe(errno))")
  }

  static func writeFailed(errno: Int32) -> Self {
    Self(.writeFailed, errno: errno, "writing from secure memory failed: \(Kernel.describe(errno))")
  }

  static func outputFailed(errno: Int32) -> Self {
    Self(.writeFailed, errno: errno, "writing failed: \(Kernel.describe(errno))")
  }

  static func hashingFailed(errno: Int32?, memoryLimit: Int) -> Self {
    Self(
      .hashingFailed, errno: errno,
      "Argon2id could not hash the password\(cause(errno)): it needs "
        + "\(formatBytes(UInt64(memoryLimit))) of memory; free memory, raise `ulimit -v`, or "
        + "choose a lower strength")
  }

  static func keyDerivationFailed(errno: Int32?, memoryLimit: Int) -> Self {
    Self(
      .hashingFailed, errno: errno,
      "Argon2id could not derive the key\(cause(errno)): its memory limit asks for "
        + "\(formatBytes(UInt64(memoryLimit))) at once; free memory or raise `ulimit -v`")
  }

  /// ` (the errno's text)` when Argon2id's failure came with one, else nothing.
  private static func cause(_ errno: Int32?) -> String {
    errno.map { " (\(Kernel.describe($0)))" } ?? ""
  }

  static func malformedHash(_ reason: String) -> Self {
    Self(
      .malformedHash,
      "not a password hash libsodium can verify (\(reason)); expected a string such as "
        + "`$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`")
  }

  static func invalidSalt(count: Int, expected: Int) -> Self {
    Self(
      .invalidSalt,
      "the key derivation's salt has \(count) bytes; Argon2id takes exactly \(expected) "
        + "(crypto_pwhash_SALTBYTES): read the salt that was stored with the data, or make a new "
        + "one with KeyDerivation.random(strength:)")
  }

  static func limitOutOfRange<Value: Comparable & CustomStringConvertible>(
    _ name: String, _ value: Value, allowed: ClosedRange<Value>, constants: String,
    describe: (Value) -> String = { $0.description }
  ) -> Self {
    let side =
      value < allowed.lowerBound ? "below libsodium's minimum" : "above libsodium's maximum"
    return Self(
      .limitOutOfRange,
      "the key derivation's \(name) of \(describe(value)) is \(side): libsodium accepts "
        + "\(describe(allowed.lowerBound)) to \(describe(allowed.upperBound)) (\(constants))")
  }

  static func sealedSecretAltered(byteCount: Int) -> Self {
    Self(
      .sealedSecretAltered,
      "a sealed secret of \(byteCount) bytes failed authentication (XChaCha20-Poly1305): its "
        + "ciphertext was changed in memory since it was sealed, by a stray write or another "
        + "process, or it was sealed by a parent process under another key; nothing of it was "
        + "opened; drop it and obtain the secret again")
  }

  static func readFailed(errno: Int32) -> Self {
    Self(.readFailed, errno: errno, "reading into secure memory failed: \(Kernel.describe(errno))")
  }
}

func formatBytes(_ count: UInt64) -> String {
  if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
  if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
  return "\(count) bytes"
}

extension ErrorCode where Failure == SecureMemoryError {
  /// `sodium_init()` failed: libsodium cannot run in this process.
  public static var libsodiumUnavailable: Self { Self() }
  /// The kernel refused the mapping for a new buffer.
  public static var allocationFailed: Self { Self() }
  /// The buffer could not be locked in RAM (`RLIMIT_MEMLOCK`).
  ///
  /// The message tells the end user how to raise the limit. A program that
  /// can go on without the lock allocates with ``LockPolicy/bestEffort`` and
  /// reads ``SecureBuffer/protection`` instead.
  public static var lockFailed: Self { Self() }
  /// Secret memory cannot be had here: the kernel does not offer it
  /// (`memfd_secret` failed with `ENOSYS`: before Linux 5.14, or booted
  /// without `secretmem.enable`), or a sandbox's seccomp filter forbids it
  /// (`EPERM`, `EACCES`).
  public static var secretMemoryUnavailable: Self { Self() }
  /// The guard pages around the buffer are missing (`vm.max_map_count`).
  ///
  /// A program that can go on without them allocates with
  /// ``LockPolicy/bestEffort`` (the buffer is then usually left read-write).
  public static var guardPagesMissing: Self { Self() }
  /// A page protection or advice the buffer needs did not take effect.
  public static var protectionFailed: Self { Self() }
  /// Reading from a file descriptor into the buffer failed.
  public static var readFailed: Self { Self() }
  /// Writing from the buffer to a file descriptor failed.
  public static var writeFailed: Self { Self() }
  /// Argon2id could not hash (usually: not enough memory for the limits).
  public static var hashingFailed: Self { Self() }
  /// A password hash string is not one libsodium can verify.
  public static var malformedHash: Self { Self() }
  /// A key derivation's salt is not the length Argon2id takes.
  public static var invalidSalt: Self { Self() }
  /// A key derivation's limit (passes, memory, key or password length) is
  /// outside what libsodium accepts.
  public static var limitOutOfRange: Self { Self() }
  /// A sealed secret's ciphertext (or its tag, its nonce or the count
  /// beside it) changed in memory since it was sealed: it failed
  /// authentication, and its bytes cannot be had (see
  /// ``SecureStorage/sealed``). A forked child gets it too, for every
  /// secret its parent sealed: the child has a key of its own.
  public static var sealedSecretAltered: Self { Self() }
}
