/// Many small secrets in few locked pages: slabs of guarded, locked, no-access
/// memory cut into slots, each slot a ``SecureBuffer``'s storage.
///
/// A `SecureBuffer` of its own costs one `sodium_malloc`: four memory mappings
/// and a locked page however small the secret, so the default limits
/// (`RLIMIT_MEMLOCK` of 8 MiB, `vm.max_map_count` of 65,530) hold about 2,000
/// of them. An arena holds a 32-byte secret in 48 bytes of a 64 KiB slab: the
/// same limits hold over 170,000.
///
/// Each slab is one `sodium_malloc` allocation, verified like a buffer's: a
/// guard page before and after, locked in RAM, excluded from core dumps, wiped
/// in a forked child, no-access outside windows. Its slots come in size classes
/// (``slotSizes``: 32 to 2,048 bytes), each followed by a 16-byte random
/// canary that is checked when the slot is freed and when a window on it or
/// its neighbour closes; an overwritten canary ends the process with a message
/// naming the arena and the size class, as `sodium_free` ends it for its own.
/// A freed slot is wiped at once; an empty slab is returned to the system
/// (except one spare per size class while no other slab of it has room).
///
/// The one cost of packing: a window opens the whole page its secret lies on
/// (two pages when the slot and its canaries straddle a boundary), so while it
/// is open the other secrets on that page are readable too, and writable in a
/// write window. Windows are counted per page, under one lock per slab: a page
/// turns no-access only when the last window on it closes. See
/// ``Protection/sharesPagesWithOtherSecrets``.
///
/// Thread-safe: each size class and each slab has its own lock, and buffers on
/// the arena may be made, used and dropped on any thread. Buffers keep their
/// slabs alive, so an arena may be dropped before its buffers.
///
/// - Complexity: a slot is handed out in O(1) with no system call while a slab
///   has room; freeing it costs two `mprotect` calls (the wipe's window), none
///   when a window already holds its page open. A new slab costs one
///   `sodium_malloc` of 64 KiB and its verification (about 30 µs).
public final class SecureArena: Sendable {
  /// The sizes of the slots, in bytes. A request larger than the last gets a
  /// buffer of its own.
  public static let slotSizes = [32, 64, 128, 256, 512, 1024, 2048]

  /// The name given at creation, used in the message of a canary trap.
  public let name: String
  let sizeClasses: [ArenaSizeClass]

  /// Creates an empty arena; slabs are mapped as slots are asked for.
  ///
  /// - Parameter name: names the arena in the message that ends the process
  ///   when a canary was overwritten, so the faulty user can be found.
  /// - Throws: ``SecureMemoryError`` when libsodium cannot be initialised.
  public init(name: String = "unnamed") throws(SecureMemoryError) {
    try Sodium.ensureInitialized()
    self.name = name
    let canary = ArenaCanary()
    sizeClasses = Self.slotSizes.map {
      ArenaSizeClass(layout: ArenaLayout(arenaName: name, slotSize: $0, canary: canary))
    }
  }

  /// How many slabs the arena holds now, across its size classes.
  public var slabCount: Int { sizeClasses.reduce(0) { $0 + $1.slabCount } }

  /// The bytes of each slab: 64 KiB (a page where pages are larger), plus a
  /// guard page before and after.
  public static var slabSize: Int { ArenaLayout.slabSize }

  /// The size class that holds `capacity` bytes, or nil when it needs a buffer
  /// of its own.
  func sizeClass(holding capacity: Int) -> ArenaSizeClass? {
    sizeClasses.first { $0.layout.slotSize >= capacity }
  }
}
