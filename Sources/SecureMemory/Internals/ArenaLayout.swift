/// Where one size class puts its slots in a slab, and the canary that follows
/// each of them.
///
/// A slab's data pages begin with the 16 bytes of its region's own canary
/// (`sodium_malloc`'s, or the one a secret-memory region keeps in the same
/// place); then come the slots, back to back, each `slotSize` bytes followed by
/// a 16-byte canary, so that every slot has a canary on both sides (the first
/// one's is the region's). Slots may straddle a page boundary: a window then
/// opens both pages.
struct ArenaLayout: Sendable {
  /// The bytes of a slab, guard pages not counted: 64 KiB, or one page where
  /// pages are larger.
  static let slabSize = max(64 * 1024, Kernel.pageSize)
  /// The bytes of the canary after each slot (as `sodium_malloc`'s: 16).
  static let canaryCount = 16

  /// The arena's name, for the message of a trap.
  let arenaName: String
  /// The memory the arena's slabs are asked for in.
  let storage: SecureStorage
  /// How many bytes a slot of this class holds.
  let slotSize: Int
  /// The value every canary of the arena holds.
  let canary: ArenaCanary

  /// From one slot's start to the next: the slot and its canary.
  var stride: Int { slotSize + Self.canaryCount }

  /// How many slots fit after libsodium's canary.
  var slotsPerSlab: Int { (Self.slabSize - Sodium.canaryCount) / stride }

  /// The offset, from the start of the data pages, of the canary before
  /// `slot`; the slot's window covers from here to the end of its own canary.
  func windowOffset(of slot: Int) -> Int { slot * stride }

  /// The bytes a window on a slot covers: the canary before, the slot, the
  /// canary after.
  var windowCount: Int { stride + Self.canaryCount }
}

/// 16 random bytes, drawn once per arena (`getrandom` through the standard
/// library's generator), written after every slot and compared when a slot is
/// freed or a window near it closes.
///
/// It holds nothing secret: it tells an overrun from an intact slot, as
/// `sodium_malloc`'s canary does. Random so that a write of a constant (zeros,
/// a repeated byte) cannot happen to match.
struct ArenaCanary: Sendable {
  let low: UInt64
  let high: UInt64

  init() {
    var generator = SystemRandomNumberGenerator()
    low = generator.next()
    high = generator.next()
  }

  func write(at pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: low, as: UInt64.self)
    pointer.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
  }

  func isIntact(at pointer: UnsafeRawPointer) -> Bool {
    pointer.loadUnaligned(as: UInt64.self) == low
      && pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == high
  }
}
