import Synchronization

/// The process's key for sealed storage: 32 bytes of XChaCha20-Poly1305 key,
/// then the 16 random bytes every nonce of this process starts with.
///
/// Made on first use, in secret memory (`memfd_secret`) where the kernel
/// offers it: there the page stays readable to this process's own code, so an
/// open costs no system call, while the kernel refuses to read it for anyone
/// else, root included (`EIO` from `/proc/PID/mem`). Where the kernel refuses
/// secret memory, the key is a `sodium_malloc` page, no-access outside the
/// opens that read it, as a ``SecureBuffer`` is: each open then costs an
/// `mprotect` pair, counted among the readers so threads share it.
///
/// In a forked child the key's page is gone (`MADV_DONTFORK`) or zeros
/// (`MADV_WIPEONFORK`): the first open there makes a new key, so what the
/// parent sealed does not open in the child (it fails authentication).
///
/// Never freed: the key lives as long as the process, in one page between
/// guard pages.
final class SealingKey: @unchecked Sendable {
  // Sendable: `region` never changes; the fallback's window count is behind
  // `readers`' lock.
  /// The key's memory: the key at `start`, the nonce prefix after it.
  let region: GuardedRegion
  /// What the key's memory got, verified as a buffer's is.
  let protection: Protection
  /// The process that made the key.
  let owner: Int32
  /// True when the page is no-access outside opens (not secret memory).
  let needsWindow: Bool
  /// Open windows on a fallback key's page.
  private let readers = Mutex(0)

  static let keyByteCount = 32
  static let prefixByteCount = 16

  private init(region: GuardedRegion, protection: Protection, needsWindow: Bool) {
    self.region = region
    self.protection = protection
    self.owner = Kernel.processID
    self.needsWindow = needsWindow
  }

  /// Where the key is; read it only between ``open()`` and ``close()``.
  var key: UnsafeRawPointer { UnsafeRawPointer(region.start) }
  /// Where the nonce prefix is; as ``key``.
  var noncePrefix: UnsafeRawPointer { UnsafeRawPointer(region.start + Self.keyByteCount) }

  /// Makes the key readable for this use: nothing for secret memory, the
  /// first reader's `mprotect` for a fallback page.
  @inline(__always)
  func open() {
    guard needsWindow else { return }
    readers.withLock { count in
      if count == 0 {
        precondition(region.protectReadOnly(), "SealingKey: mprotect on the key's page failed")
      }
      count += 1
    }
  }

  /// Ends a use begun with ``open()``.
  @inline(__always)
  func close() {
    guard needsWindow else { return }
    readers.withLock { count in
      count -= 1
      if count == 0 {
        precondition(region.protectNoAccess(), "SealingKey: mprotect on the key's page failed")
      }
    }
  }

  // MARK: The process's key

  /// This process's key, made on first use (and again in a forked child).
  ///
  /// - Complexity: two relaxed atomic loads once the key exists.
  /// - Throws: ``SecureMemoryError`` when neither secret memory nor a locked
  ///   sodium page can be had.
  @inline(__always)
  static func current() throws(SecureMemoryError) -> Unmanaged<SealingKey> {
    let owner = publishedOwner.load(ordering: .acquiring)
    if owner == Kernel.processID && owner != 0 {
      let bits = published.load(ordering: .acquiring)
      return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }
    return try makeCurrent()
  }

  /// The protections of the key this process has now, or would have: made
  /// here when there is none yet.
  static func currentProtection() throws(SecureMemoryError) -> Protection {
    try current()._withUnsafeGuaranteedRef { $0.protection }
  }

  private static func makeCurrent() throws(SecureMemoryError) -> Unmanaged<SealingKey> {
    try creation.withLock { _ throws(SecureMemoryError) -> Unmanaged<SealingKey> in
      let owner = publishedOwner.load(ordering: .acquiring)
      if owner == Kernel.processID && owner != 0 {
        return Unmanaged.fromOpaque(
          UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring))!)
      }
      // A parent's key, if any, is left as it is: in this child its page is
      // gone or zeros, and freeing it would trap on the canary.
      let made = Unmanaged.passRetained(try make())
      published.store(UInt(bitPattern: made.toOpaque()), ordering: .releasing)
      publishedOwner.store(Kernel.processID, ordering: .releasing)
      return made
    }
  }

  private static func make() throws(SecureMemoryError) -> SealingKey {
    let (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: keyByteCount + prefixByteCount, policy: .required,
      storage: .strongestAvailable)
    let inSecretMemory = protection.storage == .secretMemory
    precondition(region.protectReadWrite(), "SealingKey: mprotect on the key's new page failed")
    Sodium.fillRandom(region.start, count: keyByteCount + prefixByteCount)
    let closed = inSecretMemory ? region.protectReadOnly() : region.protectNoAccess()
    precondition(closed, "SealingKey: mprotect on the key's new page failed")
    return SealingKey(region: region, protection: protection, needsWindow: !inSecretMemory)
  }

  /// For the package's tests only: forgets this process's key, so the next
  /// open makes a new one, as a forked child does. What was sealed under the
  /// old key no longer opens.
  static func discardForTesting() {
    creation.withLock { _ in publishedOwner.store(0, ordering: .releasing) }
  }

  private static let creation = Mutex(())
  private static let published = Atomic<UInt>(0)
  private static let publishedOwner = Atomic<Int32>(0)
}
