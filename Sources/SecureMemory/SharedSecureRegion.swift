import Synchronization

/// One guarded, locked allocation that holds several ``SecureBuffer``s side by
/// side and opens them together: a window on any of them is a window on all,
/// so nested windows on two of them cost one protection pair, not two.
///
/// For secrets that are always used together, such as a terminal's input and
/// the password field it is typed into: the key arrives in one buffer and is
/// copied into the other inside the same window. The region is one
/// `sodium_malloc` (or `memfd_secret` region) verified as a buffer's is: a
/// guard page before and after, locked in RAM, excluded from core dumps, kept
/// from a forked child, no-access outside windows. Buffers are carved from its
/// top down with ``SecureBuffer/init(capacity:sharing:)``: the first one made
/// ends at the trailing guard page (make the largest first), and every one has
/// a 16-byte random canary below it, so a write past either end of a buffer
/// lands in a canary or the guard page. The canaries beside a buffer are
/// checked when a write window on it closes and when it is dropped; an
/// overwritten one ends the process.
///
/// The price of sharing: while a window on one buffer is open the others are
/// readable too (writable in a write window), as slots of a ``SecureArena``
/// are (``Protection/sharesPagesWithOtherSecrets``). Share a region only
/// between buffers that hold parts of the same secret.
///
/// Room a dropped buffer used is wiped at once but not handed out again; the
/// memory goes back to the system when the region and all its buffers are
/// gone (buffers keep their region alive). A buffer that grows past its room
/// moves to a region of its own, in the same storage, and stops sharing.
///
/// Thread-safe: windows are counted under one lock, and the page protection
/// changes under it, so no window's closing makes the region no-access under
/// another's open window.
///
/// - Complexity: making a region costs what making one buffer costs (one
///   `sodium_malloc` and its verification, about 25 µs); a buffer carved from
///   it costs no system call; the outermost window of a nesting costs two
///   `mprotect` calls over the whole region, an inner one none.
public final class SharedSecureRegion: @unchecked Sendable {
  // Sendable: the region's pages are touched only inside windows opened under
  // `state`'s lock, and `state` holds everything that changes.
  /// The region's memory; nil for a sealed one, which holds none.
  private let memory: GuardedRegion?
  /// The memory of a guarded region: never asked of a sealed one, whose
  /// buffers are each sealed on their own.
  var region: GuardedRegion { memory! }
  /// The storage the region was made in, or its buffers are (sealed).
  let storage: SecureStorage
  /// What holds for the whole region, verified when it was mapped.
  let protection: Protection
  /// The policy the region was mapped under; its buffers keep it.
  let policy: LockPolicy
  let ownerProcess: Int32
  let canary = ArenaCanary()
  private let state: Mutex<State>

  private struct State {
    var readers = 0
    var writers = 0
    /// The offset from the region's start where the room not yet handed out ends.
    var top: Int
  }

  /// The bytes of the canary below every buffer.
  static let canaryCount = 16

  /// Maps a region with room for buffers of `capacities` bytes (each rounded
  /// up to 16, and its canary).
  ///
  /// - Parameters:
  ///   - capacities: the buffers the region is for, largest first.
  ///   - policy: whether a missing protection refuses the region.
  ///   - storage: which memory holds it, as for a ``SecureBuffer``. With
  ///     ``SecureStorage/sealed`` the region maps nothing and shares nothing:
  ///     each buffer made on it is sealed on its own, since a sealed window
  ///     changes no protection that sharing could save.
  /// - Throws: ``SecureMemoryError`` as ``SecureBuffer/init(capacity:locking:storage:)`` does.
  public init(
    holding capacities: [Int], locking policy: LockPolicy = .required,
    storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) {
    precondition(capacities.allSatisfy { $0 >= 0 }, "SharedSecureRegion: negative capacity")
    self.policy = policy
    ownerProcess = Kernel.processID
    guard storage != .sealed else {
      // A sealed buffer's window changes no protection, so there is nothing
      // to share: each buffer is sealed on its own.
      memory = nil
      self.storage = .sealed
      protection = try Sealing.protection()
      state = Mutex(State(top: 0))
      return
    }
    let total = capacities.reduce(0) { $0 + Self.rounded($1) + Self.canaryCount }
    let (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: total, policy: policy, storage: storage)
    memory = region
    self.storage = region.storage
    var shared = protection
    shared.sharesPagesWithOtherSecrets = true
    self.protection = shared
    state = Mutex(State(top: region.capacity))
    // sodium_malloc fills the bytes with 0xdb; a new buffer must read as zeros.
    if protection.isInaccessibleOutsideWindows {
      precondition(region.protectReadWrite(), "SharedSecureRegion: mprotect on a new region failed")
    }
    region.zero()
    if protection.isInaccessibleOutsideWindows {
      precondition(region.protectNoAccess(), "SharedSecureRegion: mprotect on a new region failed")
    }
  }

  deinit {
    if ownerProcess == Kernel.processID { memory?.free() }
  }

  /// How many bytes buffers of `capacities` (each rounded up to 16, with its
  /// canary, and the region's own canary) need past the last whole page: 0
  /// when they fill whole pages exactly.
  ///
  /// A window's protection pair costs more the more pages the region has
  /// (about 0.3 µs a page, measured): a caller whose buffers spill a few bytes
  /// into one more page may rather give one of them that much less room.
  public static func bytesPastWholePages(holding capacities: [Int]) -> Int {
    let total = capacities.reduce(Sodium.canaryCount) { $0 + rounded($1) + canaryCount }
    return total % Kernel.pageSize
  }

  /// The most a buffer can hold in a region of `pages` whole pages beside
  /// buffers of `others`' capacities (each rounded up to 16, with the canaries
  /// of all and the region's own): 0 when they alone fill the pages.
  ///
  /// For a caller that would rather give a buffer less room than make every
  /// window cover one more page (about 0.3 µs a page).
  public static func largestCapacity(besides others: [Int], inPages pages: Int) -> Int {
    let used = others.reduce(Sodium.canaryCount + canaryCount) { $0 + rounded($1) + canaryCount }
    return max(0, pages * Kernel.pageSize - used) & ~15
  }

  /// How many more bytes a buffer carved now could hold.
  public var remainingCapacity: Int {
    state.withLock { max(0, $0.top - Self.canaryCount) & ~15 }
  }

  private static func rounded(_ capacity: Int) -> Int { (capacity + 15) & ~15 }

  /// Carves room for `capacity` bytes below what was handed out, writes its
  /// canary, or returns nil when the region has no such room left.
  func carve(capacity: Int) -> RegionPart? {
    guard memory != nil else { return nil }
    let size = Self.rounded(capacity)
    return state.withLock { state -> RegionPart? in
      guard state.top - size - Self.canaryCount >= 0 else { return nil }
      let offset = state.top - size
      let isTop = state.top == region.capacity
      state.top = offset - Self.canaryCount
      open(writable: true, &state)
      canary.write(at: region.start + state.top)
      close(writable: true, &state)
      return RegionPart(region: self, offset: offset, capacity: size, isTop: isTop)
    }
  }

  func openWindow(writable: Bool) {
    state.withLock { open(writable: writable, &$0) }
  }

  func closeWindow(on part: RegionPart, writable: Bool) {
    state.withLock { state in
      if writable && ownerProcess == Kernel.processID { checkCanaries(around: part) }
      close(writable: writable, &state)
    }
  }

  /// Checks `part`'s canaries, then wipes its bytes, in a write window.
  func wipe(_ part: RegionPart) {
    guard ownerProcess == Kernel.processID else { return }
    state.withLock { state in
      open(writable: true, &state)
      checkCanaries(around: part)
      Sodium.zero(part.start, count: part.capacity)
      close(writable: true, &state)
    }
  }

  /// Traps when a canary beside `part` was overwritten. A window is open.
  private func checkCanaries(around part: RegionPart) {
    let below = !canary.isIntact(at: part.start - Self.canaryCount)
    let above = !part.isTop && !canary.isIntact(at: part.start + part.capacity)
    if below || above {
      fatalError(
        "SharedSecureRegion: the canary \(above ? "after" : "before") a buffer of "
          + "\(part.capacity) bytes was overwritten, by a write past the end of a buffer "
          + "sharing the region; ending the process")
    }
  }

  private func open(writable: Bool, _ state: inout State) {
    let before = Self.access(state)
    if writable { state.writers += 1 } else { state.readers += 1 }
    apply(from: before, to: Self.access(state))
  }

  private func close(writable: Bool, _ state: inout State) {
    let before = Self.access(state)
    if writable { state.writers -= 1 } else { state.readers -= 1 }
    precondition(state.writers >= 0 && state.readers >= 0, "SharedSecureRegion: unbalanced window")
    apply(from: before, to: Self.access(state))
  }

  private static func access(_ state: State) -> Kernel.PageAccess {
    state.writers > 0 ? .readWrite : state.readers > 0 ? .readOnly : .none
  }

  private func apply(from before: Kernel.PageAccess, to after: Kernel.PageAccess) {
    guard before != after, protection.isInaccessibleOutsideWindows else { return }
    let done: Bool
    switch after {
    case .none: done = region.protectNoAccess()
    case .readOnly: done = region.protectReadOnly()
    case .readWrite: done = region.protectReadWrite()
    }
    // In a forked child secret memory is not mapped (`MADV_DONTFORK`): the
    // call finds nothing there, and a touch faults as on a guard page.
    precondition(
      done || ownerProcess != Kernel.processID,
      "SharedSecureRegion: mprotect on the region's own mapping failed")
  }
}

/// A ``SecureBuffer``'s room in a ``SharedSecureRegion``.
struct RegionPart: Sendable {
  let region: SharedSecureRegion
  let offset: Int
  let capacity: Int
  /// True for the first room carved, which ends at the trailing guard page.
  let isTop: Bool

  var start: UnsafeMutableRawPointer { region.region.start + offset }

  func openWindow(writable: Bool) { region.openWindow(writable: writable) }
  func closeWindow(writable: Bool) { region.closeWindow(on: self, writable: writable) }

  /// Wipes the room; it is not handed out again.
  func free() { region.wipe(self) }
}
