/// Where a ``SecureBuffer``'s bytes live: a guarded region of its own, or a slot
/// of a ``SecureArena``.
///
/// Everything above this type (windows, editing, growth) is the same for both;
/// what differs is how a window changes page protection and how the memory is
/// given back.
enum BufferBacking {
  /// One allocation for this buffer alone: `sodium_malloc` or secret memory.
  case ownRegion(GuardedRegion)
  /// A slot in a slab shared with other secrets of the same size class.
  case arenaSlot(ArenaSlot)

  /// Where the bytes start.
  var start: UnsafeMutableRawPointer {
    switch self {
    case .ownRegion(let region): region.start
    case .arenaSlot(let slot): slot.start
    }
  }

  /// How many bytes fit.
  var capacity: Int {
    switch self {
    case .ownRegion(let region): region.capacity
    case .arenaSlot(let slot): slot.capacity
    }
  }

  /// Allocates room for at least `minimumCapacity` bytes: a slot of `arena`
  /// when one of its size classes holds that many, else a region of its own.
  ///
  /// - Throws: ``SecureMemoryError`` as ``GuardedRegion/allocate(minimumCapacity:policy:)``
  ///   does; a slot needs a new slab only when its class is full.
  ///
  /// `storage` chooses the backing of a region of its own; a slot is in its
  /// arena's slabs, whatever `storage` says.
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
      minimumCapacity: minimumCapacity, policy: policy, storage: storage)
    return (.ownRegion(region), protection)
  }

  /// The backing a new region of the same kind is asked for when growing: a
  /// region's own, or sodium for a slot (its arena decides where it grows).
  var storage: SecureStorage {
    switch self {
    case .ownRegion(let region): region.storage
    case .arenaSlot: .sodium
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
    }
  }
}
