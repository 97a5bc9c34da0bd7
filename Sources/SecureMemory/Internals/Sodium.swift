import CSodium
import CSystemShims
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
    guard sodium_init() >= 0 else { return .failure(.libsodiumUnavailable()) }
    if !LoadTimeBinding.coversLibsodiumCalls { bindEveryFunction() }
    return .success(())
  }()

  /// Calls every libsodium function `SecureMemory` calls once, on dummy data,
  /// before the first secret exists.
  ///
  /// The first call of a function through the PLT goes to glibc's lazy-binding
  /// resolver (`_dl_runtime_resolve_xsavec`), which saves the vector registers on
  /// the stack, below the caller's frame, where nothing wipes them; a key or a
  /// chunk of plaintext that libsodium or a copy left in a register would then
  /// outlive its buffer. A library cannot ask the programs that link it for
  /// `-z now`, so it binds what it calls here, and the residue tests prove it in
  /// release builds. The calls also bind what libsodium itself calls in libc
  /// (`mmap`, `mprotect`, `malloc`) on the same paths.
  ///
  /// Skipped where the loader bound everything already
  /// (``LoadTimeBinding/coversLibsodiumCalls``): the packaged tools are linked
  /// with `-z now` (`Packaging/build-flags.bash`), and Debian's libsodium23 is
  /// too. Run everywhere else, because the calls into libsodium are in the PLT
  /// of whatever links this module, which SwiftPM binds lazily unless that
  /// program passes `-z now` itself, and a package cannot require it of its
  /// dependents.
  ///
  /// **Every libsodium function called anywhere in this file must appear in this
  /// list** (`SodiumBindingTests` checks that it does). Adding a call elsewhere
  /// in `Sodium`: add one call of it here.
  ///
  /// - Complexity: about 0.2 ms, once per process: one `sodium_malloc`, three
  ///   Argon2id runs at libsodium's minimum limits (8 KiB, one pass), one sealed
  ///   and opened chunk.
  private static func bindEveryFunction() {
    // Memory, protection, wiping, comparison.
    if let page = sodium_malloc(64) {
      _ = sodium_mprotect_readonly(page)
      _ = sodium_mprotect_readwrite(page)
      sodium_memzero(page, 64)
      _ = sodium_memcmp(page, page + 32, 32)
      let bytes = page.assumingMemoryBound(to: UInt8.self)
      _ = crypto_verify_16(bytes, bytes)
      _ = crypto_verify_32(bytes, bytes)
      _ = crypto_verify_64(bytes, bytes)
      _ = sodium_mprotect_noaccess(page)
      _ = sodium_mprotect_readwrite(page)
      sodium_free(page)
    }
    sodium_stackzero(64)
    var random = [UInt8](repeating: 0, count: 64)
    randombytes_buf(&random, 16)

    // Argon2id: the limits, the encoded-hash functions, raw key derivation.
    _ = crypto_pwhash_opslimit_interactive()
    _ = crypto_pwhash_opslimit_moderate()
    _ = crypto_pwhash_opslimit_sensitive()
    _ = crypto_pwhash_memlimit_interactive()
    _ = crypto_pwhash_memlimit_moderate()
    _ = crypto_pwhash_memlimit_sensitive()
    _ = crypto_pwhash_argon2id_opslimit_min()
    _ = crypto_pwhash_argon2id_opslimit_max()
    _ = crypto_pwhash_argon2id_memlimit_min()
    _ = crypto_pwhash_argon2id_memlimit_max()
    _ = crypto_pwhash_argon2id_bytes_min()
    _ = crypto_pwhash_argon2id_bytes_max()
    _ = crypto_pwhash_argon2id_passwd_max()
    _ = crypto_pwhash_argon2id_saltbytes()
    _ = crypto_pwhash_argon2id_strprefix()
    let operations = UInt64(crypto_pwhash_argon2id_opslimit_min())
    let memory = crypto_pwhash_argon2id_memlimit_min()
    let algorithm = crypto_pwhash_alg_argon2id13()
    var encoded = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
    if crypto_pwhash_str_alg(&encoded, "x", 1, operations, memory, algorithm) == 0 {
      _ = crypto_pwhash_str_verify(encoded, "x", 1)
      _ = crypto_pwhash_str_needs_rehash(encoded, operations, memory)
    }
    _ = random.withUnsafeMutableBufferPointer { bytes in
      crypto_pwhash(
        bytes.baseAddress!, 16, "x", 1, bytes.baseAddress! + 48, operations, memory, algorithm)
    }

    // Sealed streams: one final chunk sealed and opened under a dummy key.
    var state = [UInt8](repeating: 0, count: crypto_secretstream_xchacha20poly1305_statebytes())
    var header = [UInt8](repeating: 0, count: crypto_secretstream_xchacha20poly1305_headerbytes())
    let key = [UInt8](repeating: 0, count: crypto_secretstream_xchacha20poly1305_keybytes())
    var chunk = [UInt8](repeating: 0, count: 1 + crypto_secretstream_xchacha20poly1305_abytes())
    var plain: [UInt8] = [0]
    var tag: UInt8 = 0
    _ = crypto_secretstream_xchacha20poly1305_tag_message()
    state.withUnsafeMutableBytes { raw in
      let state = raw.baseAddress!.assumingMemoryBound(
        to: crypto_secretstream_xchacha20poly1305_state.self)
      _ = crypto_secretstream_xchacha20poly1305_init_push(state, &header, key)
      _ = crypto_secretstream_xchacha20poly1305_push(
        state, &chunk, nil, plain, 1, nil, 0, crypto_secretstream_xchacha20poly1305_tag_final())
      _ = crypto_secretstream_xchacha20poly1305_init_pull(state, header, key)
      _ = crypto_secretstream_xchacha20poly1305_pull(
        state, &plain, nil, &tag, chunk, UInt64(chunk.count), nil, 0)
    }

    // Sealed storage: one byte sealed and opened under the dummy key.
    let nonce = [UInt8](repeating: 0, count: crypto_aead_xchacha20poly1305_ietf_npubbytes())
    var mac = [UInt8](repeating: 0, count: crypto_aead_xchacha20poly1305_ietf_abytes())
    var sealed: [UInt8] = [0]
    _ = crypto_aead_xchacha20poly1305_ietf_keybytes()
    _ = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
      &sealed, &mac, nil, plain, 1, nil, 0, nil, nonce, key)
    _ = crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
      &plain, nil, sealed, 1, mac, nil, 0, nonce, key)
  }

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

  /// Wraps `sodium_memcmp` (`crypto_verify_16`, `_32` and `_64` for those
  /// counts): time depends on `count` only, never on the bytes.
  static func constantTimeEqual(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int
  ) -> Bool {
    // The common sizes of keys and tokens have fixed-size compares, as
    // constant in time and about a tenth of the cost of the byte loop.
    switch count {
    case 16:
      return crypto_verify_16(
        lhs.assumingMemoryBound(to: UInt8.self), rhs.assumingMemoryBound(to: UInt8.self)) == 0
    case 32:
      return crypto_verify_32(
        lhs.assumingMemoryBound(to: UInt8.self), rhs.assumingMemoryBound(to: UInt8.self)) == 0
    case 64:
      return crypto_verify_64(
        lhs.assumingMemoryBound(to: UInt8.self), rhs.assumingMemoryBound(to: UInt8.self)) == 0
    default:
      return sodium_memcmp(lhs, rhs, count) == 0
    }
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

// MARK: - Raw Argon2id key derivation

extension Sodium {
  /// What libsodium accepts for raw Argon2id (`crypto_pwhash_argon2id_*_min`,
  /// `_max`, `_saltbytes`).
  struct KeyDerivationBounds {
    let operations: ClosedRange<UInt64>
    let memory: ClosedRange<Int>
    let keyByteCount: ClosedRange<Int>
    let maximumPasswordByteCount: Int
    let saltByteCount: Int
  }

  static let keyDerivationBounds = KeyDerivationBounds(
    operations: UInt64(
      crypto_pwhash_argon2id_opslimit_min())...UInt64(
        crypto_pwhash_argon2id_opslimit_max()),
    memory:
      crypto_pwhash_argon2id_memlimit_min()...Int(
        clamping: crypto_pwhash_argon2id_memlimit_max()),
    keyByteCount:
      crypto_pwhash_argon2id_bytes_min()...Int(
        clamping: crypto_pwhash_argon2id_bytes_max()),
    maximumPasswordByteCount: Int(clamping: crypto_pwhash_argon2id_passwd_max()),
    saltByteCount: crypto_pwhash_argon2id_saltbytes())

  /// Wraps `crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`: Argon2id over
  /// `password` and `salt`, writing `key.count` bytes straight into `key`.
  ///
  /// Both `password` and `key` lie inside the caller's windows (base addresses
  /// never nil). Returns nil on success, or the `errno` libsodium left (`ENOMEM`
  /// when the memory limit cannot be had).
  static func deriveKey(
    into key: UnsafeMutableRawBufferPointer, password: UnsafeRawBufferPointer, salt: [UInt8],
    limits: PasswordHashLimits
  ) -> Int32? {
    Kernel.errno = 0
    let result = salt.withUnsafeBufferPointer { salt in
      crypto_pwhash(
        key.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(key.count),
        password.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(password.count),
        salt.baseAddress!, limits.operations, limits.memory, crypto_pwhash_alg_argon2id13())
    }
    return result == 0 ? nil : Kernel.errno
  }
}

// MARK: - Sealed streams (XChaCha20-Poly1305)

extension Sodium {
  /// The sizes of `crypto_secretstream_xchacha20poly1305`: its state, header,
  /// key, and what each chunk adds (`_statebytes`, `_headerbytes`, `_keybytes`,
  /// `_abytes`).
  static let streamStateByteCount = crypto_secretstream_xchacha20poly1305_statebytes()
  static let streamHeaderByteCount = crypto_secretstream_xchacha20poly1305_headerbytes()
  static let streamKeyByteCount = crypto_secretstream_xchacha20poly1305_keybytes()
  static let streamChunkOverhead = crypto_secretstream_xchacha20poly1305_abytes()

  private static func streamState(
    _ state: UnsafeMutableRawBufferPointer
  ) -> UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state> {
    precondition(state.count >= streamStateByteCount)
    return state.baseAddress!.assumingMemoryBound(
      to: crypto_secretstream_xchacha20poly1305_state.self)
  }

  /// Wraps `crypto_secretstream_xchacha20poly1305_init_push`: a fresh random
  /// header into `header`, and the state for sealing under `key` into `state`
  /// (secure memory, inside the caller's write window).
  static func startSealing(
    state: UnsafeMutableRawBufferPointer, header: UnsafeMutableRawBufferPointer,
    key: UnsafeRawBufferPointer
  ) {
    precondition(header.count == streamHeaderByteCount && key.count == streamKeyByteCount)
    _ = crypto_secretstream_xchacha20poly1305_init_push(
      streamState(state), header.baseAddress!.assumingMemoryBound(to: UInt8.self),
      key.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }

  /// Wraps `crypto_secretstream_xchacha20poly1305_push` with no additional data:
  /// seals `message` into `chunk` (`message.count` plus the overhead), tagged
  /// final or plain message, and advances `state`.
  static func seal(
    state: UnsafeMutableRawBufferPointer, chunk: UnsafeMutableRawBufferPointer,
    message: UnsafeRawBufferPointer, isFinal: Bool
  ) {
    precondition(chunk.count == message.count + streamChunkOverhead)
    let tag =
      isFinal
      ? crypto_secretstream_xchacha20poly1305_tag_final()
      : crypto_secretstream_xchacha20poly1305_tag_message()
    _ = crypto_secretstream_xchacha20poly1305_push(
      streamState(state), chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), nil,
      message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count), nil, 0,
      tag)
  }

  /// Wraps `crypto_secretstream_xchacha20poly1305_init_pull`: the state for
  /// opening the stream that `header` starts, under `key`. False when libsodium
  /// rejects the header.
  static func startOpening(
    state: UnsafeMutableRawBufferPointer, header: UnsafeRawBufferPointer,
    key: UnsafeRawBufferPointer
  ) -> Bool {
    precondition(header.count == streamHeaderByteCount && key.count == streamKeyByteCount)
    return crypto_secretstream_xchacha20poly1305_init_pull(
      streamState(state), header.baseAddress!.assumingMemoryBound(to: UInt8.self),
      key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
  }

  /// What one opened chunk was.
  enum OpenedChunk {
    case message
    case final
  }

  /// Wraps `crypto_secretstream_xchacha20poly1305_pull` with no additional data:
  /// checks `chunk`'s tag and, only when it authenticates, writes its plaintext
  /// into `message` (`chunk.count` less the overhead) and advances `state`. Nil
  /// when the chunk does not authenticate; `state` and `message` are then as
  /// they were.
  static func open(
    state: UnsafeMutableRawBufferPointer, message: UnsafeMutableRawBufferPointer,
    chunk: UnsafeRawBufferPointer
  ) -> OpenedChunk? {
    precondition(message.count + streamChunkOverhead == chunk.count)
    var tag: UInt8 = 0
    let result = crypto_secretstream_xchacha20poly1305_pull(
      streamState(state), message.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, &tag,
      chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(chunk.count), nil, 0)
    guard result == 0 else { return nil }
    return tag == crypto_secretstream_xchacha20poly1305_tag_final() ? .final : .message
  }
}

// MARK: - Sealed storage (XChaCha20-Poly1305, detached)

extension Sodium {
  /// The sizes of `crypto_aead_xchacha20poly1305_ietf`: its key, its nonce
  /// and its tag (`_keybytes`, `_npubbytes`, `_abytes`).
  static let sealingKeyByteCount = crypto_aead_xchacha20poly1305_ietf_keybytes()
  static let sealingNonceByteCount = crypto_aead_xchacha20poly1305_ietf_npubbytes()
  static let sealingTagByteCount = crypto_aead_xchacha20poly1305_ietf_abytes()

  /// Wraps `crypto_aead_xchacha20poly1305_ietf_encrypt_detached` with no
  /// additional data: `count` bytes of `plaintext` sealed into `ciphertext`
  /// (the same count; the two may be the same bytes) and their tag into
  /// `tag`, under `key` and `nonce`.
  static func sealDetached(
    _ plaintext: UnsafeRawPointer, count: Int, into ciphertext: UnsafeMutableRawPointer,
    tag: UnsafeMutableRawPointer, nonce: UnsafeRawPointer, key: UnsafeRawPointer
  ) {
    _ = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
      ciphertext.assumingMemoryBound(to: UInt8.self), tag.assumingMemoryBound(to: UInt8.self),
      nil, plaintext.assumingMemoryBound(to: UInt8.self), UInt64(count), nil, 0, nil,
      nonce.assumingMemoryBound(to: UInt8.self), key.assumingMemoryBound(to: UInt8.self))
  }

  /// Wraps `crypto_aead_xchacha20poly1305_ietf_decrypt_detached` with no
  /// additional data: checks `tag` over `count` bytes of `ciphertext` and,
  /// only when it authenticates, writes the plaintext into `plaintext`.
  /// False when it does not; libsodium then writes nothing.
  static func openDetached(
    _ ciphertext: UnsafeRawPointer, count: Int, tag: UnsafeRawPointer,
    into plaintext: UnsafeMutableRawPointer, nonce: UnsafeRawPointer, key: UnsafeRawPointer
  ) -> Bool {
    crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
      plaintext.assumingMemoryBound(to: UInt8.self), nil,
      ciphertext.assumingMemoryBound(to: UInt8.self), UInt64(count),
      tag.assumingMemoryBound(to: UInt8.self), nil, 0, nonce.assumingMemoryBound(to: UInt8.self),
      key.assumingMemoryBound(to: UInt8.self)) == 0
  }
}
