/// An Argon2id password hash in the standard encoded form,
/// `$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`, as libsodium, PHP's
/// `password_hash` and the reference `argon2` tool write it.
///
/// Make one from a password held in a ``SecureBuffer`` with
/// ``init(hashing:strength:)``; check a password against a stored one with
/// ``verify(_:against:)``. The password is read by libsodium where it lies, inside
/// a read window: it is never copied out of secure memory. The hash itself is not
/// secret: it is meant to be stored, and to cost an attacker who steals it a full
/// Argon2id run for every guess.
///
/// Hashing is slow on purpose. At ``Strength/interactive`` one hash, or one
/// verification, takes 64 MiB and about 60 ms on an idle 2-core x86-64 VM,
/// 120 ms under load; see ``Strength`` for the others.
public struct PasswordHash: Sendable, Hashable, CustomStringConvertible {
  /// The encoded hash: algorithm, version, limits, salt and hash, in one line of
  /// ASCII. Store this.
  public let string: String

  /// Wraps a stored hash string, after checking that libsodium can decode it.
  ///
  /// Accepts Argon2id hashes and the older Argon2i ones (which still verify; see
  /// ``needsRehash(_:strength:)``).
  ///
  /// - Throws: ``SecureMemoryError`` with code `malformedHash` when `string` is not
  ///   an Argon2 hash libsodium can verify (checked with
  ///   `crypto_pwhash_str_needs_rehash`).
  /// - Complexity: O(`string.count`); no hashing.
  public init(_ string: String) throws(SecureMemoryError) {
    try Sodium.ensureInitialized()
    let decoded = Sodium.passwordHashNeedsRehash(string, limits: Sodium.limits(for: .interactive))
    switch decoded {
    case nil: throw .malformedHash("longer than 127 bytes, or contains a NUL byte")
    case -1: throw .malformedHash("libsodium cannot decode it")
    default: self.string = string
    }
  }

  /// Hashes the bytes in `password` with Argon2id at `strength`, under a new
  /// random salt.
  ///
  /// Hashes the bytes exactly as they are: the same characters typed in another
  /// Unicode normalisation form, or another encoding, give different bytes and do
  /// not verify. Wraps `crypto_pwhash_str_alg` with Argon2id13, called inside a
  /// read window on `password`; the stack below is wiped afterwards.
  ///
  /// - Throws: ``SecureMemoryError`` with code `hashingFailed` when the memory
  ///   `strength` needs cannot be had.
  /// - Complexity: one Argon2id run: 64 MiB and 60–120 ms at `.interactive`.
  public init(
    hashing password: borrowing SecureBuffer, strength: Strength = .interactive
  ) throws(SecureMemoryError) {
    try Sodium.ensureInitialized()
    let limits = Sodium.limits(for: strength)
    let outcome = password.withUnsafeBytes { bytes in
      Sodium.hashPassword(bytes, limits: limits)
    }
    wipeStack()
    switch outcome {
    case .hashed(let string): self.string = string
    case .failed(let errno): throw .hashingFailed(errno: errno, memoryLimit: limits.memory)
    }
  }

  /// True when `password` holds the bytes `hash` was made from.
  ///
  /// Runs Argon2id again with the salt and limits stored in `hash`, so it costs
  /// what hashing at those limits costs, and compares in constant time. Wraps
  /// `crypto_pwhash_str_verify`, called inside a read window on `password`; the
  /// stack below is wiped afterwards.
  ///
  /// - Throws: ``SecureMemoryError`` with code `hashingFailed` when the memory the
  ///   hash's limits ask for cannot be had. Libsodium 1.0.18 cannot tell that from a
  ///   wrong password and returns `false` instead: the check fails closed.
  /// - Complexity: one Argon2id run at the limits stored in `hash`.
  public static func verify(
    _ password: borrowing SecureBuffer, against hash: PasswordHash
  ) throws(SecureMemoryError) -> Bool {
    try Sodium.ensureInitialized()
    let check = password.withUnsafeBytes { bytes in
      Sodium.verifyPassword(bytes, against: hash.string)
    }
    wipeStack()
    switch check {
    case .match: return true
    case .mismatch: return false
    case .failed(let errno):
      throw .hashingFailed(errno: errno == 0 ? nil : errno, memoryLimit: hash.memoryLimit)
    case nil: throw .malformedHash("longer than 127 bytes, or contains a NUL byte")
    }
  }

  /// True when `hash` was not made by Argon2id at exactly the limits of
  /// `strength`: made at weaker (or stronger) limits, or with Argon2i. Rehash the
  /// password the next time the user gives it, and store the new hash.
  ///
  /// Wraps `crypto_pwhash_str_needs_rehash`, which reads the limits from the
  /// string and hashes nothing.
  ///
  /// - Complexity: O(`hash.string.count`).
  public static func needsRehash(_ hash: PasswordHash, strength: Strength) -> Bool {
    guard hash.string.hasPrefix(Sodium.argon2idPrefix) else { return true }
    // The string was decoded when the value was made, so -1 cannot occur; a hash
    // that cannot be read is one to replace.
    return Sodium.passwordHashNeedsRehash(hash.string, limits: Sodium.limits(for: strength)) != 0
  }

  /// The encoded hash, as in ``string``.
  public var description: String { string }

  /// The memory the stored limits ask for (`m=` is in KiB), for error messages.
  private var memoryLimit: Int {
    for field in string.split(separator: "$") {
      for parameter in field.split(separator: ",") where parameter.hasPrefix("m=") {
        if let kibibytes = Int(parameter.dropFirst(2)) { return kibibytes * 1024 }
      }
    }
    return 0
  }
}
