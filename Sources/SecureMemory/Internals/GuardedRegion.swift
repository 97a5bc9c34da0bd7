/// One `sodium_malloc` allocation, its layout, and the checks that prove its
/// protections by their effect.
///
/// `sodium_malloc(n)` maps, in order: a read-only page holding the size, a guard
/// page, the data pages (a 16-byte canary, then the `n` user bytes ending exactly at
/// the next page), and a trailing guard page. The region does not own the memory;
/// ``SecureBuffer`` does.
struct GuardedRegion {
  /// Where the user bytes start: right after the canary.
  let start: UnsafeMutableRawPointer
  /// How many user bytes fit: the data pages less the canary.
  let capacity: Int

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

  /// Maps a region of at least `minimumCapacity` bytes, verifies every protection,
  /// leaves it no-access, and either throws (`.required`) or reports what is
  /// missing (`.bestEffort`).
  static func allocate(
    minimumCapacity: Int, policy: LockPolicy
  ) throws(SecureMemoryError) -> (GuardedRegion, Protection) {
    precondition(minimumCapacity >= 0, "SecureBuffer capacity must not be negative")
    try Sodium.ensureInitialized()
    let capacity = usableCapacity(atLeast: minimumCapacity)
    guard let start = Sodium.allocate(capacity) else {
      throw .allocationFailed(capacity: capacity, errno: Kernel.errno)
    }
    let region = GuardedRegion(start: start, capacity: capacity)
    let (protection, firstFailure) = region.verify()
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
  private func verify() -> (Protection, SecureMemoryError?) {
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
      .protectionFailed("excluding secret memory from core dumps (MADV_DONTDUMP)", errno: $0)
    }
    let isWipedOnFork = check(Kernel.wipeOnFork(dataPages, dataPagesCount)) {
      .protectionFailed("wiping secret memory on fork (MADV_WIPEONFORK)", errno: $0)
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

  func protectNoAccess() -> Bool { Sodium.protectNoAccess(start) }

  /// Makes the data pages no-access again after a window. Where the kernel
  /// refuses, leaves them read-write for good, a state windows never need to
  /// change, and returns false.
  func closeWindow() -> Bool {
    if protectNoAccess() { return true }
    precondition(protectReadWrite(), "SecureBuffer: mprotect on a buffer's own mapping failed")
    return false
  }

  func protectReadOnly() -> Bool { Sodium.protectReadOnly(start) }
  func protectReadWrite() -> Bool { Sodium.protectReadWrite(start) }

  /// Zeroes the whole capacity; the caller holds a read-write window.
  func zero() { Sodium.zero(start, count: capacity) }

  /// Wipes, unlocks and unmaps the region (`sodium_free`, which checks the canary).
  func free() { Sodium.free(start) }
}
