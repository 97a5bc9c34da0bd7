import Synchronization

/// Where one sealed secret rests: a nonce counter, a tag and the ciphertext,
/// packed with other secrets' in a slab of a ``SealedStore``, or in a region
/// of its own past the largest size class.
///
/// The layout, from ``header``: the 8-byte counter the nonce ends with (0 while
/// the slot holds nothing sealed), the 16-byte Poly1305 tag, then
/// ``capacity`` bytes of which the buffer's `count` are ciphertext. The nonce
/// itself is the process's 16-byte prefix (``SealingKey``) and the counter:
/// the counter comes from one process-wide atomic, so no two seals under one
/// key share a nonce.
///
/// No reference is counted: the slab is kept alive by its store while the
/// slot is handed out, and the store by the buffer's arena or the process.
@usableFromInline struct SealedSlot: @unchecked Sendable {
  // Sendable: the bytes are written only by the buffer that owns the slot,
  // inside its mutating methods.
  /// The slot's first byte: the counter, then the tag, then the ciphertext.
  let header: UnsafeMutableRawPointer
  /// How many bytes of plaintext the slot holds.
  let capacity: Int
  /// The slab the slot belongs to, or the region of its own.
  unowned(unsafe) let owner: SealedSlab
  /// The slot's index in its slab; -1 for a region of its own.
  let index: Int32

  /// The bytes before the ciphertext: the counter and the tag.
  static let headerCount = 8 + 16

  var tag: UnsafeMutableRawPointer { header + 8 }
  var ciphertext: UnsafeMutableRawPointer { header + Self.headerCount }

  /// The counter of the last seal, 0 when nothing was sealed.
  var counter: UInt64 {
    get { header.loadUnaligned(as: UInt64.self) }
    nonmutating set { header.storeBytes(of: newValue, as: UInt64.self) }
  }

  /// Wipes the slot and gives it back to its store.
  func free() { owner.free(self) }
}

extension SealedSlot {
  /// The next nonce counter of this process: starts at 1, never repeats.
  private static let nextCounter = Atomic<UInt64>(1)

  /// Decrypts the slot's `count` bytes of ciphertext into `plaintext`,
  /// checking the tag first; nil when they authenticate, else the error.
  ///
  /// - Complexity: one XChaCha20-Poly1305 decryption of `count` bytes; no
  ///   system call, no allocation (with the key in secret memory).
  @inline(__always)
  func open(count: Int, into plaintext: UnsafeMutableRawPointer) -> SecureMemoryError? {
    guard count > 0 else { return nil }
    let counter = self.counter
    guard counter != 0 else { return .sealedSecretAltered(byteCount: count) }
    let key: Unmanaged<SealingKey>
    do { key = try SealingKey.current() } catch { return error }
    return key._withUnsafeGuaranteedRef { key in
      key.open()
      defer { key.close() }
      return Self.withNonce(prefix: key.noncePrefix, counter: counter) { nonce in
        let authentic = Sodium.openDetached(
          ciphertext, count: count, tag: tag, into: plaintext, nonce: nonce, key: key.key)
        return authentic ? nil : .sealedSecretAltered(byteCount: count)
      }
    }
  }

  /// Seals `count` bytes of `plaintext` into the slot under a new nonce;
  /// with `count` 0, only marks the slot empty.
  ///
  /// - Throws: ``SecureMemoryError`` when the process's key cannot be made
  ///   (its first use); the slot is then unchanged.
  @inline(__always)
  func seal(count: Int, from plaintext: UnsafeRawPointer) throws(SecureMemoryError) {
    guard count > 0 else {
      Sodium.zero(header, count: Self.headerCount)
      return
    }
    let key = try SealingKey.current()
    let counter = Self.nextCounter.wrappingAdd(1, ordering: .relaxed).oldValue
    key._withUnsafeGuaranteedRef { key in
      key.open()
      defer { key.close() }
      Self.withNonce(prefix: key.noncePrefix, counter: counter) { nonce in
        Sodium.sealDetached(
          plaintext, count: count, into: ciphertext, tag: tag, nonce: nonce, key: key.key)
      }
    }
    self.counter = counter
  }

  /// Wipes the counter, the tag and `count` bytes of ciphertext.
  func wipe(count: Int) {
    Sodium.zero(header, count: Self.headerCount + count)
  }

  /// Copies the counter, the tag and `count` bytes of ciphertext into
  /// `other`, a larger slot: growth moves a sealed secret without opening it.
  func copySealed(count: Int, to other: SealedSlot) {
    precondition(other.capacity >= count, "SealedSlot: moving into a smaller slot")
    moveSecretBytes(to: other.header, from: header, count: Self.headerCount + count)
  }

  /// The 24-byte nonce, the prefix then the counter, on the stack: it is
  /// not secret.
  @inline(__always)
  private static func withNonce<Result>(
    prefix: UnsafeRawPointer, counter: UInt64, _ body: (UnsafeRawPointer) -> Result
  ) -> Result {
    var nonce: (UInt64, UInt64, UInt64) = (
      prefix.loadUnaligned(as: UInt64.self),
      prefix.loadUnaligned(fromByteOffset: 8, as: UInt64.self), counter
    )
    return withUnsafeBytes(of: &nonce) { body($0.baseAddress!) }
  }
}

/// The steps of a sealed buffer's window: open into the thread's scratch,
/// seal again, close; and what a sealed buffer's protection is.
enum Sealing {
  /// Decrypts `count` bytes of `slot` into a new slot of `room` bytes of the
  /// calling thread's scratch.
  ///
  /// With `forSealing`, makes sure the process's key exists (a child's first
  /// use makes one), so that the seal at the window's close cannot fail.
  ///
  /// - Throws: ``SecureMemoryError`` with code `sealedSecretAltered` when the
  ///   ciphertext does not authenticate (the scratch slot is wiped and given
  ///   back: nothing of it is lent), or when the scratch or the key cannot be
  ///   had.
  @inline(__always)
  static func open(
    _ slot: SealedSlot, count: Int, room: Int, forSealing: Bool = false
  ) throws(SecureMemoryError) -> ScratchStack.Slot {
    if forSealing { _ = try SealingKey.current() }
    let opened = ScratchStack.current()._withUnsafeGuaranteedRef {
      stack -> Result<ScratchStack.Slot, SecureMemoryError> in
      let scratch: ScratchStack.Slot
      do throws(SecureMemoryError) { scratch = try stack.push(room) } catch {
        return .failure(error)
      }
      if let failure = slot.open(count: count, into: scratch.start) {
        stack.pop(scratch, wiping: room)
        return .failure(failure)
      }
      return .success(scratch)
    }
    return try opened.get()
  }

  /// Seals `count` bytes of `scratch` into `slot` under a new nonce.
  @inline(__always)
  static func seal(_ slot: SealedSlot, from scratch: ScratchStack.Slot, count: Int) {
    do { try slot.seal(count: count, from: scratch.start) } catch {
      // `open(forSealing:)` made the key before the window opened.
      preconditionFailure("SecureBuffer: the sealing key vanished inside a window: \(error)")
    }
  }

  /// Wipes `wiping` bytes of `scratch` and gives it back.
  @inline(__always)
  static func close(_ scratch: ScratchStack.Slot, wiping: Int) {
    ScratchStack.current()._withUnsafeGuaranteedRef { $0.pop(scratch, wiping: wiping) }
  }

  /// What holds for every sealed buffer of this process: its ciphertext
  /// packed, locked and left out of core dumps and forks; its key (and the
  /// scratch its windows open into) in secret memory where the kernel offers
  /// it, hidden from the kernel there.
  ///
  /// Makes the process's key on first use, so that a buffer that exists can
  /// always be sealed, and the calling thread's scratch, so that what a
  /// window needs is had before the first window (a prompt's first key).
  static func protection() throws(SecureMemoryError) -> Protection {
    var protection = try SealingKey.currentProtection()
    let prepared = ScratchStack.current()._withUnsafeGuaranteedRef {
      stack -> SecureMemoryError? in
      do throws(SecureMemoryError) { try stack.prepare() } catch { return error }
      return nil
    }
    if let prepared { throw prepared }
    protection.storage = .sealed
    protection.sharesPagesWithOtherSecrets = true
    protection.isInaccessibleOutsideWindows = true
    return protection
  }
}
