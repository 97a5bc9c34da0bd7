/// Where a ``SecureBuffer``'s bytes live: a guarded region of its own, a slot
/// of a ``SecureArena``, or room in a ``SharedSecureRegion``.
///
/// Everything above this type (windows, editing, growth) is the same for both;
/// what differs is how a window changes page protection and how the memory is
/// given back.
enum BufferBacking {
  /// One allocation for this buffer alone: `sodium_malloc` or secret memory.
  case ownRegion(GuardedRegion)
  /// A slot in a slab shared with other secrets of the same size class.
  case arenaSlot(ArenaSlot)
  /// Room in a region shared with other buffers, opened with them.
  case regionPart(RegionPart)

  /// Where the bytes start.
  var start: UnsafeMutableRawPointer {
    switch self {
    case .ownRegion(let region): region.start
    case .arenaSlot(let slot): slot.start
    case .regionPart(let part): part.start
    }
  }

  /// How many bytes fit.
  var capacity: Int {
    switch self {
    case .ownRegion(let region): region.capacity
    case .arenaSlot(let slot): slot.capacity
    case .regionPart(let part): part.capacity
    }
  }

  /// Allocates room for at least `minimumCapacity` bytes: a slot of `arena`
  /// when one of its size classes holds that many, else a region of its own,
  /// in the arena's storage for a buffer on an arena (whatever `storage` says)
  /// and in `storage` for one that is not.
  ///
  /// - Throws: ``SecureMemoryError`` as ``GuardedRegion/allocate(minimumCapacity:policy:storage:)``
  ///   does; a slot needs a new slab only when its class is full.
  static func allocate(
    minimumCapacity: Int, policy: LockPolicy, storage: SecureStorage = .sodium,
    arena: SecureArena?
  ) throws(SecureMemoryError) -> (BufferBacking, Protection) {
    precondition(minimumCapacity >= 0, "SecureBuffer capacity must not be negative")
    if let sizeClass = arena?.sizeClass(holding: minimumCapacity) {
      let slot = try sizeClass.allocate()
      var protection = slot.slab.protection
      protection.sharesPagesWithOtherSecrets = true
      return (.arenaSlot(slot), protection)
    }
    let (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: minimumCapacity, policy: policy, storage: arena?.storage ?? storage)
    return (.ownRegion(region), protection)
  }

  /// The backing a new region of the same kind is asked for when growing: a
  /// region's own, or its arena's for a slot (``allocate(minimumCapacity:policy:storage:arena:)``
  /// takes the arena's in any case).
  var storage: SecureStorage {
    switch self {
    case .ownRegion(let region): region.storage
    case .arenaSlot(let slot): slot.sizeClass.layout.storage
    case .regionPart(let part): part.region.region.storage
    }
  }

  /// Zeroes the whole capacity; the caller holds a read-write window.
  func zero() { Sodium.zero(start, count: capacity) }

  /// Wipes and gives the memory back: `sodium_free` for a region of its own
  /// (which checks libsodium's canary), the slot's wipe and canary check for a
  /// slot.
  func free() {
    switch self {
    case .ownRegion(let region): region.free()
    case .arenaSlot(let slot): slot.free()
    case .regionPart(let part): part.free()
    }
  }
}
