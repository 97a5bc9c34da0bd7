import Glibc

/// Where a thread opens sealed secrets: a stack of slots in secret memory
/// (sodium memory where the kernel refuses it), each slot wiped as its
/// window closes, the whole wiped and unmapped when the thread ends.
///
/// A window takes the next slot on its thread's stack and gives it back when
/// it closes; windows nest (a compare of two sealed buffers, an edit that
/// reads another buffer), so slots come and go last in, first out. Each slot
/// is followed by a 16-byte canary, checked when its window closes: a write
/// past a sealed secret's end traps there, as one past an arena slot does.
/// When a region has no room for the next slot, the next region is used, and
/// mapped the first time (twice as large, or as large as the slot needs):
/// a region never moves while a slot in it is open, and once the stack has
/// grown to what the thread's nesting needs, no window maps or allocates.
///
/// The regions are locked, left out of core dumps and forks, between guard
/// pages, and read-write for good: they hold nothing between windows, as a
/// ``LandingArea`` holds nothing between reads.
final class ScratchStack {
  private struct Region {
    let memory: GuardedRegion
    let protection: Protection
    var top = 0
  }

  /// The regions, the first ones smallest; those after ``current`` are empty.
  private var regions: [Region] = []
  /// The region the last slot was taken from.
  private var current = 0
  /// The process that mapped the regions.
  let owner: Int32
  private let canary = ArenaCanary()

  /// The bytes of the canary after each slot.
  static let canaryCount = 16
  /// The first region's capacity: a page less the region's own canary,
  /// room for a password and a few nested secrets; a thread that opens
  /// more maps a second region, twice as large, once.
  static var firstCapacity: Int { GuardedRegion.usableCapacity(atLeast: 1) }

  private init() {
    owner = Kernel.processID
    regions.reserveCapacity(16)
  }

  deinit {
    guard owner == Kernel.processID else { return }
    for region in regions { region.memory.free() }
  }

  /// The protections of the thread's first region: what every slot gets.
  var protection: Protection? { regions.first?.protection }

  /// One open slot: where its bytes are, and what to put back when it closes.
  struct Slot {
    let start: UnsafeMutableRawPointer
    fileprivate let region: Int
    fileprivate let previousTop: Int
    fileprivate let previousCurrent: Int
    fileprivate let room: Int
  }

  /// Takes a slot of `room` bytes (zeros) from the top of the stack.
  ///
  /// - Complexity: O(1) and no system call while a region has room; the
  ///   first slot past the regions mapped so far maps one more.
  /// - Throws: ``SecureMemoryError`` when a new region cannot be had.
  @inline(__always)
  func push(_ room: Int) throws(SecureMemoryError) -> Slot {
    let size = (room + 15) & ~15
    let need = size + Self.canaryCount
    var index = current
    while index < regions.count && regions[index].top + need > regions[index].memory.capacity {
      index += 1
    }
    if index == regions.count { try addRegion(holding: need) }
    let start = regions[index].memory.start + regions[index].top
    let slot = Slot(
      start: start, region: index, previousTop: regions[index].top, previousCurrent: current,
      room: size)
    canary.write(at: start + size)
    regions[index].top += need
    current = index
    return slot
  }

  /// Gives `slot` back, after wiping its first `wiping` bytes (all that its
  /// window may have written) and checking its canary.
  @inline(__always)
  func pop(_ slot: Slot, wiping: Int) {
    precondition(wiping <= slot.room, "ScratchStack: wiping past a slot")
    if wiping > 0 { Sodium.zero(slot.start, count: wiping) }
    if !canary.isIntact(at: slot.start + slot.room) {
      fatalError(
        "SecureBuffer: a write past the end of a sealed secret of \(slot.room) bytes or less "
          + "overwrote the canary of its thread's scratch slot; ending the process")
    }
    Sodium.zero(slot.start + slot.room, count: Self.canaryCount)
    regions[slot.region].top = slot.previousTop
    current = slot.previousCurrent
  }

  /// Maps the first region now if there is none yet: a thread that makes a
  /// sealed buffer learns then, not at its first window, that the scratch
  /// cannot be had (the lock limit).
  func prepare() throws(SecureMemoryError) {
    if regions.isEmpty { try addRegion(holding: 0) }
  }

  private func addRegion(holding need: Int) throws(SecureMemoryError) {
    let capacity = max(need, regions.last.map { $0.memory.capacity * 2 } ?? Self.firstCapacity)
    let (memory, protection) = try GuardedRegion.allocate(
      minimumCapacity: capacity, policy: .required, storage: .strongestAvailable)
    guard memory.protectReadWrite() else {
      let errno = Kernel.errno
      memory.free()
      throw .protectionFailed(
        "opening a thread's scratch for sealed secrets (mprotect)", errno: errno)
    }
    regions.append(Region(memory: memory, protection: protection))
  }

  // MARK: The calling thread's stack

  /// The calling thread's stack, made on its first sealed window (and again
  /// in a forked child, where the parent's regions are gone or zeros).
  ///
  /// Unretained: the thread's slot holds the reference until the thread ends.
  ///
  /// - Complexity: one `pthread_getspecific` once the stack exists.
  @inline(__always)
  static func current() -> Unmanaged<ScratchStack> {
    if let pointer = pthread_getspecific(threadKey) {
      let stack = Unmanaged<ScratchStack>.fromOpaque(pointer)
      if stack._withUnsafeGuaranteedRef({ $0.owner == Kernel.processID }) { return stack }
    }
    let made = Unmanaged.passRetained(ScratchStack())
    // A parent's stack in a forked child is left as it is: its regions are
    // gone or zeros there, and freeing them would trap on the canary.
    pthread_setspecific(threadKey, made.toOpaque())
    return made
  }

  /// The thread-specific key whose destructor wipes and unmaps a thread's
  /// stack when the thread ends.
  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { pointer in
      guard let pointer else { return }
      Unmanaged<ScratchStack>.fromOpaque(pointer).release()
    }
    precondition(created == 0, "ScratchStack: no thread-specific key")
    return key
  }()

  /// For the package's tests: where the calling thread's first region
  /// starts, nil before its first sealed window.
  static var firstRegionOfCurrentThread: UnsafeRawPointer? {
    guard let pointer = pthread_getspecific(threadKey) else { return nil }
    return Unmanaged<ScratchStack>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
      $0.regions.first.map { UnsafeRawPointer($0.memory.start) }
    }
  }
}
