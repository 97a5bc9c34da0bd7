/// Many small secrets in few locked pages, each a ``SecureBuffer``: sealed
/// by default, or in slots of guarded slabs.
///
/// A `SecureBuffer` of its own costs one `sodium_malloc`: four memory mappings
/// and a locked page however small the secret, so the default limits
/// (`RLIMIT_MEMLOCK` of 8 MiB, `vm.max_map_count` of 65,530) hold about 2,000
/// of them. An arena packs them.
///
/// **Sealed** (``SecureStorage/sealed``, the default): each secret rests as
/// XChaCha20-Poly1305 ciphertext, its 8-byte nonce counter and 16-byte tag
/// in slots of locked slabs (a page, doubling to 1 MiB), under the process's
/// key in secret memory: a 32-byte secret takes 56 bytes and about 0.0004
/// mappings, so the default limits hold some 140,000. Making, opening,
/// editing and dropping one costs no system call; a window decrypts into the
/// calling thread's scratch (see ``SecureStorage/sealed`` and
/// <doc:TwoWaysASecretRests>).
///
/// **Guarded** (``SecureStorage/strongestAvailable``, ``SecureStorage/sodium``,
/// ``SecureStorage/secretMemory``): each slab is one allocation of the arena's
/// ``storage``, verified like a buffer's: secret memory (`memfd_secret`, one
/// descriptor per slab, closed once it is mapped; pages the kernel itself
/// cannot read for root or a debugger) or `sodium_malloc`. Either way a
/// guard page before and after, locked in RAM, excluded from core dumps, kept
/// from a forked child (wiped there for sodium memory, not mapped there at all
/// for secret memory), no-access outside windows. Its slots come in size
/// classes (``slotSizes``: 32 to 2,048 bytes; a larger request, or a buffer
/// that grows past 2,048 bytes, gets a region of its own in the same storage),
/// each followed by a 16-byte random canary that is checked when the slot is
/// freed and when a window on it or its neighbour closes; an overwritten
/// canary ends the process with a message naming the arena and the size
/// class, as `sodium_free` ends it for its own. A 32-byte secret takes 48
/// bytes of a 64 KiB slab. A freed slot is wiped at once; an empty slab is
/// returned to the system (except one spare per size class while no other
/// slab of it has room).
///
/// The one cost of packing guarded slots: a window opens the whole page its
/// secret lies on (two pages when the slot and its canaries straddle a
/// boundary), so while it is open the other secrets on that page are
/// readable too, and writable in a write window. Windows are counted per
/// page, under one lock per slab: a page turns no-access only when the last
/// window on it closes. See ``Protection/sharesPagesWithOtherSecrets``.
///
/// Thread-safe: each size class and each slab has its own lock, and buffers on
/// the arena may be made, used and dropped on any thread. Buffers keep their
/// slabs alive, so an arena may be dropped before its buffers.
///
/// - Complexity: sealed, a slot is handed out and given back in O(1) with no
///   system call while a slab has room, and a window costs a decryption.
///   Guarded, a slot is handed out in O(1) with no system call while a slab
///   has room; freeing it costs two `mprotect` calls (the wipe's window), none
///   when a window already holds its page open. A new guarded slab costs one
///   `sodium_malloc` of 64 KiB and its verification (about 30 µs), or for
///   secret memory one `memfd_secret` file mapped between guard pages (about
///   1.7 times as long). Secret memory counts against `RLIMIT_MEMLOCK` as
///   sodium memory does: 64 KiB a slab.
public final class SecureArena: Sendable {
  /// The sizes of a guarded arena's slots, in bytes. A request larger than
  /// the last gets a buffer of its own.
  public static let slotSizes = [32, 64, 128, 256, 512, 1024, 2048]

  /// The name given at creation, used in the message of a canary trap.
  public let name: String
  /// The memory each slab, and each buffer of the arena that outgrows the
  /// largest slot, is asked for in; what a slab got is in its buffers'
  /// ``SecureBuffer/protection`` (``Protection/storage``).
  public let storage: SecureStorage
  let sizeClasses: [ArenaSizeClass]
  /// Where a sealed arena's secrets rest; nil for a guarded one.
  let sealedStore: SealedStore?

  /// Creates an empty arena; slabs are mapped as slots are asked for.
  ///
  /// - Parameters:
  ///   - name: names the arena in the message that ends the process when a
  ///     canary was overwritten, so the faulty user can be found.
  ///   - storage: how the secrets rest. The default,
  ///     ``SecureStorage/sealed``, keeps ciphertext in packed slots and opens
  ///     it with no system call. ``SecureStorage/strongestAvailable`` maps
  ///     guarded slabs in secret memory where the kernel offers it and the
  ///     lock limit allows it, else with `sodium_malloc`; each slab decides
  ///     alone, and its buffers' ``Protection/secretMemoryFallback`` says why
  ///     it is not in secret memory. ``SecureStorage/secretMemory`` makes a
  ///     slab that cannot have it an error; ``SecureStorage/sodium`` never
  ///     asks for it (a machine with secret memory mapped cannot hibernate;
  ///     see ``SecureStorage``).
  /// - Throws: ``SecureMemoryError`` when libsodium cannot be initialised, or
  ///   a sealed arena's key cannot be made.
  public init(
    name: String = "unnamed", storage: SecureStorage = .sealed
  ) throws(SecureMemoryError) {
    try Sodium.ensureInitialized()
    self.name = name
    self.storage = storage
    guard storage != .sealed else {
      sizeClasses = []
      sealedStore = SealedStore(name: name)
      // The key is made now, so that a failure to make it is this error.
      _ = try Sealing.protection()
      return
    }
    sealedStore = nil
    let canary = ArenaCanary()
    sizeClasses = Self.slotSizes.map {
      ArenaSizeClass(
        layout: ArenaLayout(arenaName: name, storage: storage, slotSize: $0, canary: canary))
    }
  }

  /// How many slabs the arena holds now, across its size classes.
  public var slabCount: Int {
    sealedStore?.slabCount ?? sizeClasses.reduce(0) { $0 + $1.slabCount }
  }

  /// The bytes of each slab: 64 KiB (a page where pages are larger), plus a
  /// guard page before and after.
  public static var slabSize: Int { ArenaLayout.slabSize }

  /// The size class that holds `capacity` bytes, or nil when it needs a buffer
  /// of its own.
  func sizeClass(holding capacity: Int) -> ArenaSizeClass? {
    sizeClasses.first { $0.layout.slotSize >= capacity }
  }
}
