/// Where a ``SecureBuffer``'s bytes live: a guarded region of its own, a slot
/// of a ``SecureArena``, room in a ``SharedSecureRegion``, or sealed.
///
/// Everything above this type (windows, editing, growth) is the same for the
/// guarded ones; what differs is how a window changes page protection and how
/// the memory is given back. A sealed buffer's bytes have no address of their
/// own: each window opens them into the thread's scratch (``SealedSlot``).
enum BufferBacking {
  /// One allocation for this buffer alone: `sodium_malloc` or secret memory.
  case ownRegion(GuardedRegion)
  /// A slot in a slab shared with other secrets of the same size class.
  case arenaSlot(ArenaSlot)
  /// Room in a region shared with other buffers, opened with them.
  case regionPart(RegionPart)
  /// Ciphertext under the process's key, opened into the thread's scratch.
  case sealed(SealedSlot)

  /// Where the bytes start; a sealed buffer's have no fixed place.
  var start: UnsafeMutableRawPointer {
    switch self {
    case .ownRegion(let region): region.start
    case .arenaSlot(let slot): slot.start
    case .regionPart(let part): part.start
    case .sealed: preconditionFailure("SecureBuffer: a sealed buffer's bytes have no fixed place")
    }
  }

  /// How many bytes fit.
  var capacity: Int {
    switch self {
    case .ownRegion(let region): region.capacity
    case .arenaSlot(let slot): slot.capacity
    case .regionPart(let part): part.capacity
    case .sealed(let slot): slot.capacity
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
    if let store = arena?.sealedStore ?? (arena == nil && storage == .sealed ? .shared : nil) {
      return (.sealed(try store.allocate(capacity: minimumCapacity)), try Sealing.protection())
    }
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
    case .regionPart(let part): part.region.storage
    case .sealed: .sealed
    }
  }

  /// Wipes and gives the memory back: `sodium_free` for a region of its own
  /// (which checks libsodium's canary), the slot's wipe and canary check for a
  /// slot.
  func free() {
    switch self {
    case .ownRegion(let region): region.free()
    case .arenaSlot(let slot): slot.free()
    case .regionPart(let part): part.free()
    case .sealed(let slot): slot.free()
    }
  }
}
