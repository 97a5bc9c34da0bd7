/// Argon2id key derivation: a key in secure memory from a password in secure
/// memory, a salt and two limits.
///
/// The same password, salt and limits always give the same key, so store the
/// salt and the limits (not secret) beside what the key protects, and derive the
/// key again when the password is given again:
///
/// ```swift
/// let derivation = try KeyDerivation.random(strength: .interactive)
/// store(derivation.salt, derivation.operationsLimit, derivation.memoryLimit)
/// let key = try derivation.deriveKey(from: password)  // 32 bytes, a SecureBuffer
/// ```
///
/// Libsodium reads the password where it lies, inside a read window, and writes
/// the key straight into a write window of the new buffer; neither is copied
/// into ordinary memory, and the stack below is wiped after each run.
public struct KeyDerivation: Sendable, Hashable {
  /// How many bytes a salt has: 16 (`crypto_pwhash_SALTBYTES`).
  public static let saltByteCount = 16

  /// The salt: random, not secret, one per thing a key protects.
  public let salt: [UInt8]
  /// Argon2id's passes over memory (`opslimit`).
  public let operationsLimit: UInt64
  /// The memory Argon2id fills, in bytes (`memlimit`).
  public let memoryLimit: Int

  /// A derivation with a stored salt and limits, checked against what
  /// libsodium accepts.
  ///
  /// - Throws: ``SecureMemoryError`` with code `invalidSalt` when `salt` does not
  ///   have ``saltByteCount`` bytes, `limitOutOfRange` when a limit is outside
  ///   libsodium's bounds for Argon2id (`crypto_pwhash_argon2id_OPSLIMIT_MIN` is
  ///   1, `MEMLIMIT_MIN` 8 KiB); the message names the limit and the bounds.
  /// - Complexity: O(1); no hashing.
  public init(salt: [UInt8], operationsLimit: UInt64, memoryLimit: Int) throws(SecureMemoryError) {
    try Sodium.ensureInitialized()
    let bounds = Sodium.keyDerivationBounds
    precondition(bounds.saltByteCount == Self.saltByteCount, "libsodium's salt size changed")
    guard salt.count == Self.saltByteCount else {
      throw .invalidSalt(count: salt.count, expected: Self.saltByteCount)
    }
    guard bounds.operations.contains(operationsLimit) else {
      throw .limitOutOfRange(
        "operations limit", operationsLimit, allowed: bounds.operations,
        constants: "crypto_pwhash_argon2id_OPSLIMIT_MIN to _MAX")
    }
    guard bounds.memory.contains(memoryLimit) else {
      throw .limitOutOfRange(
        "memory limit", memoryLimit, allowed: bounds.memory,
        constants: "crypto_pwhash_argon2id_MEMLIMIT_MIN to _MAX",
        describe: { formatBytes(UInt64($0)) })
    }
    self.salt = salt
    self.operationsLimit = operationsLimit
    self.memoryLimit = memoryLimit
  }

  /// A derivation with a stored salt and the limits of `strength`.
  ///
  /// - Throws: ``SecureMemoryError`` with code `invalidSalt` when `salt` does not
  ///   have ``saltByteCount`` bytes.
  public init(salt: [UInt8], strength: PasswordHash.Strength) throws(SecureMemoryError) {
    try self.init(
      salt: salt, operationsLimit: strength.operationsLimit, memoryLimit: strength.memoryLimit)
  }

  /// A derivation with a new random salt (`randombytes_buf`) and the limits of
  /// `strength`: for a new thing to protect.
  ///
  /// - Throws: ``SecureMemoryError`` with code `libsodiumUnavailable` when
  ///   libsodium cannot start.
  public static func random(
    strength: PasswordHash.Strength = .interactive
  ) throws(SecureMemoryError) -> KeyDerivation {
    try Sodium.ensureInitialized()
    var salt = [UInt8](repeating: 0, count: saltByteCount)
    salt.withUnsafeMutableBytes { Sodium.fillRandom($0.baseAddress!, count: $0.count) }
    return try KeyDerivation(salt: salt, strength: strength)
  }

  /// Derives `byteCount` bytes of key from the bytes in `password` with
  /// Argon2id13 at this salt and these limits.
  ///
  /// Wraps `crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`, called inside a
  /// read window on `password` and a write window on the new key, which is
  /// allocated under the password's ``LockPolicy``; the stack below is wiped
  /// afterwards. The password's bytes are taken exactly as they are (see
  /// ``PasswordHash`` on Unicode normalisation).
  ///
  /// - Parameters:
  ///   - password: the passphrase, read inside a window and never copied.
  ///   - byteCount: the key's length: 32 for ``SecretStream``; 16 or more.
  /// - Throws: ``SecureMemoryError`` with code `limitOutOfRange` for a key or
  ///   password length libsodium does not accept, `hashingFailed` when the memory
  ///   limit cannot be had (the message names it), or what allocating the key's
  ///   buffer throws. No key is returned half-made.
  /// - Complexity: one Argon2id run: `memoryLimit` bytes, and about 60 to 120 ms
  ///   at ``PasswordHash/Strength/interactive``.
  public func deriveKey(
    from password: borrowing SecureBuffer, byteCount: Int = 32
  ) throws(SecureMemoryError) -> SecureBuffer {
    try Sodium.ensureInitialized()
    let bounds = Sodium.keyDerivationBounds
    guard bounds.keyByteCount.contains(byteCount) else {
      throw .limitOutOfRange(
        "key length", byteCount, allowed: bounds.keyByteCount,
        constants: "crypto_pwhash_argon2id_BYTES_MIN to _MAX", describe: { "\($0) bytes" })
    }
    guard password.count <= bounds.maximumPasswordByteCount else {
      throw .limitOutOfRange(
        "password length", password.count, allowed: 0...bounds.maximumPasswordByteCount,
        constants: "crypto_pwhash_argon2id_PASSWD_MAX", describe: { "\($0) bytes" })
    }
    var key = try SecureBuffer(capacity: byteCount, locking: password.lockPolicy)
    let limits = Sodium.PasswordHashLimits(operations: operationsLimit, memory: memoryLimit)
    let failure = password.withUnsafeBytes { (password) -> AppendError<DerivationFailure>? in
      do throws(AppendError<DerivationFailure>) {
        try key.append(count: byteCount) { (key) throws(DerivationFailure) in
          if let errno = Sodium.deriveKey(
            into: key, password: password, salt: salt, limits: limits)
          {
            throw DerivationFailure(errno: errno)
          }
        }
        return nil
      } catch {
        return error
      }
    }
    wipeStack()
    switch failure {
    case nil: return key
    case .memory(let error): throw error
    case .body(let failure):
      throw .keyDerivationFailed(
        errno: failure.errno == 0 ? nil : failure.errno, memoryLimit: memoryLimit)
    }
  }
}

/// `crypto_pwhash` failed, with the `errno` it left.
private struct DerivationFailure: Error {
  let errno: Int32
}
