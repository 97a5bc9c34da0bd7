import Synchronization

/// The ciphertext of sealed secrets, packed: slabs of locked memory cut into
/// slots of one size each (``SealedSlot``), and a region of its own for a
/// secret past the largest size.
///
/// A slab is one `sodium_malloc` region verified as a buffer's is (locked,
/// left out of core dumps, zeros in a forked child, between guard pages),
/// then left read-write for good: it holds only ciphertext, which a stray
/// read may see and no one can open without the key. So a slot costs no
/// system call to hand out, to open or to give back, and its secrets need no
/// page of their own: a 32-byte secret takes 56 bytes (counter, tag,
/// ciphertext), the index of free slots lives in the free slots themselves.
/// The first slab of a size is one page, so a prompt's few secrets lock
/// little (a process under a small `RLIMIT_MEMLOCK` must fit them); each
/// further one twice the last, up to 1 MiB, so that many secrets cost few
/// mappings (four a slab).
///
/// One store serves every sealed buffer not on an arena (``shared``); a
/// ``SecureArena`` of ``SecureStorage/sealed`` has its own.
final class SealedStore: Sendable {
  /// The sizes of the slots' plaintext, in bytes.
  static let slotSizes = [16, 32, 64, 128, 256, 512, 1024, 2048]

  let name: String
  private let sizeClasses: [SealedSizeClass]

  init(name: String) {
    self.name = name
    sizeClasses = Self.slotSizes.map { SealedSizeClass(slotSize: $0) }
  }

  /// The store of every sealed buffer that is not on an arena.
  static let shared = SealedStore(name: "sealed storage")

  /// A slot for at least `capacity` bytes: one of a slab's, or a region of
  /// its own past 2,048 bytes.
  ///
  /// - Complexity: O(1) and no system call while a slab of the size has
  ///   room.
  /// - Throws: ``SecureMemoryError`` when a new slab or region cannot be had.
  func allocate(capacity: Int) throws(SecureMemoryError) -> SealedSlot {
    if let sizeClass = sizeClasses.first(where: { $0.slotSize >= capacity }) {
      return try sizeClass.allocate()
    }
    return try SealedSlab.ownRegion(holding: capacity)
  }

  /// How many slabs the store holds now (regions of their own not counted).
  var slabCount: Int { sizeClasses.reduce(0) { $0 + $1.slabCount } }
}

/// The slabs of one slot size, under one lock.
final class SealedSizeClass: Sendable {
  let slotSize: Int
  private let state = Mutex(State())

  private struct State {
    /// The process the slabs belong to.
    var owner = Kernel.processID
    /// Slabs with a free slot, the one to take from last.
    var available: [SealedSlab] = []
    /// Every slab, so that they live while their slots are handed out.
    var slabs: [ObjectIdentifier: SealedSlab] = [:]
    /// The bytes of the next slab.
    var nextSlabSize = Kernel.pageSize
  }

  init(slotSize: Int) {
    self.slotSize = slotSize
  }

  var slabCount: Int { state.withLock { $0.slabs.count } }

  func allocate() throws(SecureMemoryError) -> SealedSlot {
    try state.withLock { state throws(SecureMemoryError) -> SealedSlot in
      if state.owner != Kernel.processID { state = State() }
      if state.available.isEmpty {
        let slab = try SealedSlab(
          sizeClass: self, slotSize: slotSize, byteCount: state.nextSlabSize)
        state.nextSlabSize = min(state.nextSlabSize * 2, 1024 * 1024)
        state.slabs[ObjectIdentifier(slab)] = slab
        state.available.append(slab)
      }
      let slab = state.available[state.available.count - 1]
      let (slot, isNowFull) = slab.take()
      if isNowFull { state.available.removeLast() }
      return slot
    }
  }

  /// Takes `slot` back, wiped; returns its slab to the system when it is
  /// empty and another slab has room.
  func free(_ slot: SealedSlot, from slab: SealedSlab) {
    let released: SealedSlab? = state.withLock { state in
      guard state.owner == Kernel.processID else { return nil }
      let (live, wasFull) = slab.give(slot)
      if wasFull { state.available.append(slab) }
      guard live == 0, state.available.count > 1 else { return nil }
      state.available.removeAll { $0 === slab }
      return state.slabs.removeValue(forKey: ObjectIdentifier(slab))
    }
    // Unmapped after the lock is released, when its last reference drops.
    withExtendedLifetime(released) {}
  }
}

/// One slab of sealed slots, or a region holding one sealed secret of its own.
final class SealedSlab: @unchecked Sendable {
  // Sendable: the free list and counts change only under the size class's
  // lock; each slot's bytes belong to the buffer it is handed to.
  let region: GuardedRegion
  let protection: Protection
  let ownerProcess: Int32
  /// Nil for a region of its own.
  private let sizeClass: SealedSizeClass?
  private let stride: Int
  private let slotCount: Int
  /// Slots never handed out start here.
  private var untouched = 0
  /// The first free slot that was handed out before; -1 for none. Each free
  /// slot's counter field holds the next one's index.
  private var firstFree: Int32 = -1
  private var live = 0

  /// Maps a slab of `byteCount` bytes for slots of `slotSize`.
  init(sizeClass: SealedSizeClass, slotSize: Int, byteCount: Int) throws(SecureMemoryError) {
    (region, protection) = try Self.mapOpen(byteCount: byteCount - Sodium.canaryCount)
    ownerProcess = Kernel.processID
    self.sizeClass = sizeClass
    stride = SealedSlot.headerCount + slotSize
    slotCount = region.capacity / stride
  }

  private init(ownRegion capacity: Int) throws(SecureMemoryError) {
    (region, protection) = try Self.mapOpen(byteCount: SealedSlot.headerCount + capacity)
    ownerProcess = Kernel.processID
    sizeClass = nil
    stride = region.capacity
    slotCount = 1
  }

  deinit {
    if ownerProcess == Kernel.processID { region.free() }
  }

  /// A region of its own for a sealed secret of at least `capacity` bytes
  /// (the whole pages it takes); the slot's reference keeps it.
  static func ownRegion(holding capacity: Int) throws(SecureMemoryError) -> SealedSlot {
    let slab = try SealedSlab(ownRegion: capacity)
    return SealedSlot(
      header: slab.region.start, capacity: slab.region.capacity - SealedSlot.headerCount,
      owner: Unmanaged.passRetained(slab).takeUnretainedValue(), index: -1)
  }

  /// `sodium_malloc` of at least `byteCount` bytes, every protection
  /// verified, then read-write for good and zeroed.
  private static func mapOpen(
    byteCount: Int
  ) throws(SecureMemoryError) -> (GuardedRegion, Protection) {
    var (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: byteCount, policy: .required, storage: .sodium)
    guard region.protectReadWrite() else {
      let errno = Kernel.errno
      region.free()
      throw .protectionFailed("opening a slab of sealed secrets (mprotect)", errno: errno)
    }
    region.zero()
    protection.isInaccessibleOutsideWindows = false
    return (region, protection)
  }

  /// Hands out a free slot; the caller holds the size class's lock and
  /// knows one is free.
  func take() -> (SealedSlot, isNowFull: Bool) {
    let index: Int
    if firstFree >= 0 {
      index = Int(firstFree)
      firstFree = Int32(truncatingIfNeeded: slotHeader(index).loadUnaligned(as: Int64.self))
      slotHeader(index).storeBytes(of: 0, as: UInt64.self)
    } else {
      index = untouched
      untouched += 1
    }
    live += 1
    let slot = SealedSlot(
      header: slotHeader(index), capacity: stride - SealedSlot.headerCount, owner: self,
      index: Int32(index))
    return (slot, firstFree < 0 && untouched == slotCount)
  }

  /// Wipes `slot` and takes it back; the caller holds the size class's lock.
  /// Returns how many slots are still handed out and whether the slab was
  /// full before.
  func give(_ slot: SealedSlot) -> (live: Int, wasFull: Bool) {
    let wasFull = firstFree < 0 && untouched == slotCount
    Sodium.zero(slot.header, count: stride)
    slot.header.storeBytes(of: Int64(firstFree), as: Int64.self)
    firstFree = slot.index
    live -= 1
    return (live, wasFull)
  }

  private func slotHeader(_ index: Int) -> UnsafeMutableRawPointer {
    region.start + index * stride
  }

  /// Wipes `slot` and gives it back: to the size class, or to the system
  /// for a region of its own. In a forked child nothing is wiped (the pages
  /// are zeros there) and nothing is handed out again.
  func free(_ slot: SealedSlot) {
    guard let sizeClass else {
      if ownerProcess == Kernel.processID { Sodium.zero(region.start, count: region.capacity) }
      Unmanaged.passUnretained(self).release()
      return
    }
    guard ownerProcess == Kernel.processID else { return }
    sizeClass.free(slot, from: self)
  }
}
