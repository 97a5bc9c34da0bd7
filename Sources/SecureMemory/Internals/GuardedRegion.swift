import Glibc

/// One buffer's memory, of either backing, its layout, and the checks that prove
/// its protections by their effect.
///
/// `sodium_malloc(n)` maps, in order: a read-only page holding the size, a guard
/// page, the data pages (a 16-byte canary, then the `n` user bytes ending exactly at
/// the next page), and a trailing guard page. Secret memory (``SecretMemoryRegion``)
/// keeps the same data layout, canary first, so that the last byte of capacity
/// touches the trailing guard page in both: an overrun faults at its first byte,
/// an underrun changes the canary. The region does not own the memory;
/// ``SecureBuffer`` does.
struct GuardedRegion {
  /// Where the user bytes start: right after the canary.
  let start: UnsafeMutableRawPointer
  /// How many user bytes fit: the data pages less the canary.
  let capacity: Int
  /// The secret-memory mapping that holds the data pages; nil for `sodium_malloc`.
  let secretMemory: SecretMemoryRegion?

  /// The backing, as a new region of the same kind is asked for when growing.
  var storage: SecureStorage { secretMemory == nil ? .sodium : .secretMemory }

  /// The largest capacity that fits in the pages holding `minimum` bytes. Using the
  /// whole page costs nothing and makes the end of capacity touch the guard page.
  static func usableCapacity(atLeast minimum: Int) -> Int {
    let pageSize = Kernel.pageSize
    let pages = (minimum + Sodium.canaryCount + pageSize - 1) / pageSize
    return max(1, pages) * pageSize - Sodium.canaryCount
  }

  var dataPages: UnsafeMutableRawPointer { start - Sodium.canaryCount }
  var dataPagesCount: Int { capacity + Sodium.canaryCount }
  var guardBefore: UnsafeMutableRawPointer { dataPages - Kernel.pageSize }
  var guardAfter: UnsafeMutableRawPointer { dataPages + dataPagesCount }

  /// Maps a region of at least `minimumCapacity` bytes in `storage`, verifies
  /// every protection, leaves it no-access, and either throws (`.required`) or
  /// reports what is missing (`.bestEffort`).
  ///
  /// `.secretMemory` throws when secret memory cannot be had, under either
  /// policy; `.strongestAvailable` then falls back to sodium memory and records
  /// the reason in ``Protection/secretMemoryFallback``.
  static func allocate(
    minimumCapacity: Int, policy: LockPolicy, storage: SecureStorage
  ) throws(SecureMemoryError) -> (GuardedRegion, Protection) {
    precondition(minimumCapacity >= 0, "SecureBuffer capacity must not be negative")
    try Sodium.ensureInitialized()
    let capacity = usableCapacity(atLeast: minimumCapacity)
    switch storage {
    case .sodium:
      return try allocateSodium(capacity: capacity, policy: policy)
    case .secretMemory:
      return try allocateSecretMemory(capacity: capacity, policy: policy)
    case .strongestAvailable, .sealed:
      // `.sealed` here is memory that needs an address of its own (a landing
      // area, a shared region): the strongest guarded memory there is.
      do {
        return try allocateSecretMemory(capacity: capacity, policy: policy)
      } catch {
        var (region, protection) = try allocateSodium(capacity: capacity, policy: policy)
        protection.secretMemoryFallback = error
        return (region, protection)
      }
    }
  }

  private static func allocateSodium(
    capacity: Int, policy: LockPolicy
  ) throws(SecureMemoryError) -> (GuardedRegion, Protection) {
    guard let start = Sodium.allocate(capacity) else {
      throw .allocationFailed(capacity: capacity, errno: Kernel.errno)
    }
    let region = GuardedRegion(start: start, capacity: capacity, secretMemory: nil)
    let (protection, firstFailure) = region.verifySodium()
    if policy == .required, let failure = firstFailure {
      region.free()
      throw failure
    }
    return (region, protection)
  }

  /// Applies each protection again and keeps the result. Applying a protection
  /// that already holds is a no-op that succeeds; one that silently failed inside
  /// `sodium_malloc` fails again here, for the same reason, and is reported.
  ///
  /// The guard pages are checked first. When the process is out of mappings
  /// (`vm.max_map_count`), every change that must split a mapping fails, `mlock`
  /// included, with the same `ENOMEM` that a locked-memory limit gives; the
  /// first failure is the one thrown, and it must name the cause. With the guards
  /// in place the data pages are a mapping of their own, so a later `mlock`
  /// failure can only be the limit.
  private func verifySodium() -> (Protection, SecureMemoryError?) {
    var failures: [SecureMemoryError] = []
    func check(_ errno: Int32?, _ failure: (Int32) -> SecureMemoryError) -> Bool {
      guard let errno else { return true }
      failures.append(failure(errno))
      return false
    }
    let pageSize = Kernel.pageSize
    let hasGuardPages =
      check(Kernel.protectNone(guardBefore, pageSize), SecureMemoryError.guardPagesMissing)
      && check(Kernel.protectNone(guardAfter, pageSize), SecureMemoryError.guardPagesMissing)
    let isLocked = check(Kernel.lock(dataPages, dataPagesCount), SecureMemoryError.lockFailed)
    let isExcludedFromCoreDumps = check(Kernel.excludeFromCoreDumps(dataPages, dataPagesCount)) {
      .protectionFailed("excluding the buffer from core dumps (MADV_DONTDUMP)", errno: $0)
    }
    let isWipedOnFork = check(Kernel.wipeOnFork(dataPages, dataPagesCount)) {
      .protectionFailed("wiping the buffer in a forked child (MADV_WIPEONFORK)", errno: $0)
    }
    // A window changes the protection of the data pages. That needs no new
    // mapping only while they are a mapping of their own: between two guard
    // pages, and kept from merging with them by a flag the guards lack. Otherwise
    // (out of mappings, under `.bestEffort`) a later window could fail for want
    // of a mapping, so the pages stay read-write for good, and `protection` says
    // so; the failure recorded above explains why.
    let isOwnMapping = hasGuardPages && (isLocked || isExcludedFromCoreDumps || isWipedOnFork)
    let isInaccessible =
      isOwnMapping
      && check(protectNoAccess() ? nil : Kernel.errno) {
        .protectionFailed("making secret memory no-access (mprotect)", errno: $0)
      }
    let protection = Protection(
      isLocked: isLocked, isExcludedFromCoreDumps: isExcludedFromCoreDumps,
      hasGuardPages: hasGuardPages, isWipedOnFork: isWipedOnFork,
      isInaccessibleOutsideWindows: isInaccessible)
    return (protection, failures.first)
  }

  func protectNoAccess() -> Bool {
    guard let secretMemory else { return Sodium.protectNoAccess(start) }
    return secretMemory.protect(readable: false, writable: false)
  }

  /// Makes the data pages no-access again after a window. Where the kernel
  /// refuses, leaves them read-write for good, a state windows never need to
  /// change, and returns false.
  func closeWindow() -> Bool {
    if protectNoAccess() { return true }
    precondition(protectReadWrite(), "SecureBuffer: mprotect on a buffer's own mapping failed")
    return false
  }

  func protectReadOnly() -> Bool {
    guard let secretMemory else { return Sodium.protectReadOnly(start) }
    return secretMemory.protect(readable: true, writable: false)
  }

  func protectReadWrite() -> Bool {
    guard let secretMemory else { return Sodium.protectReadWrite(start) }
    return secretMemory.protect(readable: true, writable: true)
  }

  /// Zeroes the whole capacity; the caller holds a read-write window.
  func zero() { Sodium.zero(start, count: capacity) }

  /// Wipes, unlocks and unmaps the region: `sodium_free`, or for secret memory
  /// the same steps here. Both check the canary first and end the process when
  /// it was overwritten.
  func free() {
    guard let secretMemory else { return Sodium.free(start) }
    precondition(
      secretMemory.protect(readable: true, writable: true),
      "SecureBuffer: mprotect on a secret-memory region's own mapping failed")
    let canary = Self.secretMemoryCanary
    let intact = canary.withUnsafeBytes { expected in
      Sodium.constantTimeEqual(dataPages, expected.baseAddress!, count: Sodium.canaryCount)
    }
    if !intact {
      fatalError(
        "SecureBuffer: the canary before a secret-memory buffer was overwritten (a write "
          + "before its first byte); ending the process rather than trusting its memory")
    }
    secretMemory.wipeAndUnmap()
  }
}

// MARK: - Secret memory

extension GuardedRegion {
  /// The 16 random bytes every secret-memory region of this process starts with,
  /// as `sodium_malloc`'s canary is: not secret, only unguessable by an overrun.
  static let secretMemoryCanary: [UInt8] = {
    var bytes = [UInt8](repeating: 0, count: Sodium.canaryCount)
    bytes.withUnsafeMutableBytes { Kernel.fillRandom($0.baseAddress!, $0.count) }
    return bytes
  }()

  /// Maps secret memory (``SecretMemoryRegion``), writes the canary, then
  /// proves each protection: guard pages by the checked reservation, the lock
  /// by a page-out the kernel refuses, core-dump exclusion by `MADV_DONTDUMP`,
  /// no inheritance by `MADV_DONTFORK`, no access by `mprotect`, hiding from
  /// the kernel by a read through the kernel that fails (`process_vm_readv`);
  /// the lock and the hiding once per process
  /// (``SecretMemoryRegion/isLocked(_:)``,
  /// ``SecretMemoryRegion/isHiddenFromKernel(_:)``).
  private static func allocateSecretMemory(
    capacity: Int, policy: LockPolicy
  ) throws(SecureMemoryError) -> (GuardedRegion, Protection) {
    let pages = try SecretMemoryRegion.map(byteCount: capacity + Sodium.canaryCount)
    let region = GuardedRegion(
      start: pages.pages + Sodium.canaryCount, capacity: capacity, secretMemory: pages)
    secretMemoryCanary.withUnsafeBytes {
      moveSecretBytes(to: pages.pages, from: $0.baseAddress!, count: $0.count)
    }
    var failures: [SecureMemoryError] = []
    func check(_ errno: Int32?, _ failure: (Int32) -> SecureMemoryError) -> Bool {
      guard let errno else { return true }
      failures.append(failure(errno))
      return false
    }
    // The guards are the ends of a reservation this module mapped `PROT_NONE`
    // itself, with the result checked, and nothing changes them: unlike
    // `sodium_malloc`'s, there is no ignored `mprotect` to apply again.
    let hasGuardPages = true
    let isLocked = check(SecretMemoryRegion.isLocked(pages) ? nil : EPERM) {
      .protectionFailed("locking secret memory (the kernel would page it out)", errno: $0)
    }
    // The kernel marks secret memory so itself; applied again and checked, as
    // for a sodium buffer.
    let isExcludedFromCoreDumps = check(Kernel.excludeFromCoreDumps(pages.pages, pages.byteCount)) {
      .protectionFailed("excluding secret memory from core dumps (MADV_DONTDUMP)", errno: $0)
    }
    let isOmittedFromFork = check(pages.omitFromFork()) {
      .protectionFailed("keeping secret memory from a forked child (MADV_DONTFORK)", errno: $0)
    }
    let isHidden = check(SecretMemoryRegion.isHiddenFromKernel(pages) ? nil : EIO) { _ in
      .protectionFailed(
        "hiding secret memory from the kernel (process_vm_readv read it)", errno: 0)
    }
    let isInaccessible = check(region.protectNoAccess() ? nil : Kernel.errno) {
      .protectionFailed("making secret memory no-access (mprotect)", errno: $0)
    }
    var protection = Protection(
      isLocked: isLocked, isExcludedFromCoreDumps: isExcludedFromCoreDumps,
      hasGuardPages: hasGuardPages, isWipedOnFork: isOmittedFromFork,
      isInaccessibleOutsideWindows: isInaccessible)
    protection.storage = .secretMemory
    protection.isHiddenFromKernel = isHidden
    if let failure = failures.first, policy == .required || !isHidden {
      // Secret memory that the kernel can read is only sodium memory that cost
      // more, so it is refused under either policy.
      region.free()
      throw failure
    }
    return (region, protection)
  }
}
