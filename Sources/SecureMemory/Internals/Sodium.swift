import CSodium
import Glibc

/// The only place in the package that calls libsodium.
///
/// Every function is a thin, named wrapper: callers in `SecureMemory` never see a
/// libsodium name, and nothing here knows about `SecureBuffer`'s bookkeeping.
enum Sodium {
  /// Runs `sodium_init()` exactly once, on first use, from whichever thread gets
  /// there first. A global `let` is initialised under `swift_once`.
  static func ensureInitialized() throws(SecureMemoryError) {
    if case .failure(let error) = initialization { throw error }
  }

  private static let initialization: Result<Void, SecureMemoryError> = {
    // 0: initialised now; 1: already initialised; -1: failure.
    sodium_init() >= 0 ? .success(()) : .failure(.libsodiumUnavailable())
  }()

  /// Wraps `sodium_malloc`: guard page before, guard page after, canary, `mlock`,
  /// `MADV_DONTDUMP`. Returns nil with `errno` set when the mapping fails.
  static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
    sodium_malloc(size)
  }

  /// Wraps `sodium_free`: checks the canary (SIGSEGV when it was overwritten),
  /// zeroes the data pages, unlocks and unmaps them.
  static func free(_ pointer: UnsafeMutableRawPointer) {
    sodium_free(pointer)
  }

  /// Wraps `sodium_mprotect_noaccess`. True when the kernel applied it.
  static func protectNoAccess(_ pointer: UnsafeMutableRawPointer) -> Bool {
    ProtectionChangeCount.note()
    return sodium_mprotect_noaccess(pointer) == 0
  }

  /// Wraps `sodium_mprotect_readonly`. True when the kernel applied it.
  static func protectReadOnly(_ pointer: UnsafeMutableRawPointer) -> Bool {
    ProtectionChangeCount.note()
    return sodium_mprotect_readonly(pointer) == 0
  }

  /// Wraps `sodium_mprotect_readwrite`. True when the kernel applied it.
  static func protectReadWrite(_ pointer: UnsafeMutableRawPointer) -> Bool {
    ProtectionChangeCount.note()
    return sodium_mprotect_readwrite(pointer) == 0
  }

  /// Wraps `sodium_memzero`: a wipe the compiler may not remove.
  static func zero(_ pointer: UnsafeMutableRawPointer, count: Int) {
    sodium_memzero(pointer, count)
  }

  /// Wraps `sodium_memcmp`: time depends on `count` only, never on the bytes.
  static func constantTimeEqual(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int
  ) -> Bool {
    sodium_memcmp(lhs, rhs, count) == 0
  }

  /// Wraps `sodium_stackzero`: clears `count` bytes of stack below the caller,
  /// where an optimised loop over secret bytes may have spilled them.
  static func zeroStack(_ count: Int) {
    sodium_stackzero(count)
  }

  /// Wraps `randombytes_buf`: `count` bytes from the kernel's CSPRNG
  /// (`getrandom`), written where they land.
  static func fillRandom(_ pointer: UnsafeMutableRawPointer, count: Int) {
    randombytes_buf(pointer, count)
  }

  /// The canary `sodium_malloc` places right before the user pointer.
  static let canaryCount = 16
}

// MARK: - Argon2id

extension Sodium {
  /// Argon2id's cost for one strength: passes over memory, and bytes of memory.
  struct PasswordHashLimits {
    let operations: UInt64
    let memory: Int
  }

  /// The limits libsodium names for `strength` (`crypto_pwhash_opslimit_*`,
  /// `crypto_pwhash_memlimit_*`).
  static func limits(for strength: PasswordHash.Strength) -> PasswordHashLimits {
    switch strength {
    case .interactive:
      PasswordHashLimits(
        operations: UInt64(crypto_pwhash_opslimit_interactive()),
        memory: crypto_pwhash_memlimit_interactive())
    case .moderate:
      PasswordHashLimits(
        operations: UInt64(crypto_pwhash_opslimit_moderate()),
        memory: crypto_pwhash_memlimit_moderate())
    case .sensitive:
      PasswordHashLimits(
        operations: UInt64(crypto_pwhash_opslimit_sensitive()),
        memory: crypto_pwhash_memlimit_sensitive())
    }
  }

  /// `$argon2id$`, the prefix of every hash `hashPassword` makes.
  static let argon2idPrefix = String(cString: crypto_pwhash_argon2id_strprefix())

  /// What `hashPassword` produced.
  enum HashOutcome {
    case hashed(String)
    case failed(errno: Int32)
  }

  /// Wraps `crypto_pwhash_str_alg` with `crypto_pwhash_ALG_ARGON2ID13`: a random
  /// salt, then Argon2id over `password`, encoded as `$argon2id$v=19$m=…`.
  ///
  /// `password` is read where it lies (inside the caller's read window, whose
  /// base address is never nil); the encoded string holds no secret.
  static func hashPassword(
    _ password: UnsafeRawBufferPointer, limits: PasswordHashLimits
  ) -> HashOutcome {
    var encoded = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
    let result = encoded.withUnsafeMutableBufferPointer { out in
      crypto_pwhash_str_alg(
        out.baseAddress!, password.baseAddress!.assumingMemoryBound(to: CChar.self),
        UInt64(password.count), limits.operations, limits.memory,
        crypto_pwhash_alg_argon2id13())
    }
    guard result == 0 else { return .failed(errno: Kernel.errno) }
    let length = encoded.firstIndex(of: 0) ?? encoded.count
    return .hashed(
      String(decoding: encoded[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// What `crypto_pwhash_str_verify` found.
  enum PasswordCheck {
    case match
    case mismatch
    case failed(errno: Int32)
  }

  /// Wraps `crypto_pwhash_str_verify`: hashes `password` again with the salt and
  /// limits in `encodedHash` and compares in constant time.
  ///
  /// Libsodium sets `EINVAL` for a mismatch. Version 1.0.18 also reports a failed
  /// memory allocation that way, so there it reads as a mismatch (the check
  /// fails closed); later versions leave the allocation's `errno`.
  static func verifyPassword(
    _ password: UnsafeRawBufferPointer, against encodedHash: String
  ) -> PasswordCheck? {
    withHashString(encodedHash) { hash in
      Kernel.errno = 0
      let result = crypto_pwhash_str_verify(
        hash, password.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(password.count))
      if result == 0 { return .match }
      let errno = Kernel.errno
      return errno == EINVAL ? .mismatch : .failed(errno: errno)
    }
  }

  /// Wraps `crypto_pwhash_str_needs_rehash`: 0 when `encodedHash` was made with
  /// exactly `limits`, 1 when with others, -1 when libsodium cannot decode it.
  /// Nil when the string cannot be passed to libsodium at all.
  static func passwordHashNeedsRehash(
    _ encodedHash: String, limits: PasswordHashLimits
  ) -> Int32? {
    withHashString(encodedHash) { hash in
      crypto_pwhash_str_needs_rehash(hash, limits.operations, limits.memory)
    }
  }

  /// Calls `body` with `hash` in the zero-padded `crypto_pwhash_STRBYTES` array
  /// libsodium's prototypes ask for; nil when it does not fit or holds a NUL.
  private static func withHashString<Result>(
    _ hash: String, _ body: (UnsafePointer<CChar>) -> Result
  ) -> Result? {
    var padded = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
    var length = 0
    for byte in hash.utf8 {
      guard byte != 0, length < padded.count - 1 else { return nil }
      padded[length] = CChar(bitPattern: byte)
      length += 1
    }
    return padded.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}
