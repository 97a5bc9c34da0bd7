import Synchronization

/// Secret bytes in locked, guarded memory that is no-access except inside a
/// scoped window, and wiped when the buffer ends.
///
/// A `SecureBuffer` owns one allocation of the ``SecureStorage`` chosen at
/// `init`: by default `sodium_malloc`, or `memfd_secret` secret memory that not
/// even root can read through the kernel. Either way: guard pages before and
/// after, a canary, the pages locked in RAM, excluded from core dumps and kept
/// from a forked child. What actually took effect is in ``protection``; under the
/// default ``LockPolicy/required`` a buffer that would lack any of it is never
/// handed out.
///
/// The bytes are reachable only inside ``withUnsafeBytes(_:)`` (read-only) and
/// ``withUnsafeMutableBytes(_:)`` (read-write). Editing (``append(_:)``,
/// ``replaceSubrange(_:with:)``) copies between windows with `rep movsb`, so no
/// ordinary Swift value, stack slot or vector register is left holding the secret.
///
/// The type is `~Copyable`: a copy of a secret is a decision, made with
/// `init(copying:locking:)` (from another buffer), never an accident of assignment.
///
/// - Complexity: creating and dropping a buffer costs one `sodium_malloc` and
///   `sodium_free` (four mappings, about 25 µs) plus six verifying system calls,
///   or for secret memory three mappings and about ten system calls (about 1.7
///   times as long); each window costs two `mprotect` calls.
public struct SecureBuffer: ~Copyable, @unchecked Sendable {
  // Sendable: readers only touch `region` through `gate`, which serialises the
  // protection changes; every writer is `mutating`, so exclusive by the compiler.
  var region: BufferBacking
  /// How many bytes of the capacity hold data.
  public internal(set) var count: Int
  let policy: LockPolicy
  let gate: AccessGate
  /// The arena the buffer takes its slots from, nil for a buffer of its own.
  let arena: SecureArena?
  /// The process that allocated the region. A forked child sees the data pages,
  /// canary included, as zeros; freeing there would trip the canary check.
  var ownerProcess: Int32

  /// Allocates an empty buffer with room for at least `capacity` bytes.
  ///
  /// The capacity is rounded up to fill the locked pages (a page less the 16-byte
  /// canary), so the last byte of ``capacity`` touches the trailing guard page.
  ///
  /// - Parameters:
  ///   - capacity: the fewest bytes the buffer holds without growing.
  ///   - policy: whether a missing protection refuses the buffer.
  ///   - storage: which memory holds the bytes; growth keeps the backing the
  ///     buffer got. The default, ``SecureStorage/sodium``, lets the machine
  ///     hibernate; see ``SecureStorage`` for what secret memory adds.
  /// - Throws: ``SecureMemoryError`` when the memory cannot be mapped, under
  ///   `.required` when any protection does not hold, and for `.secretMemory`
  ///   when the kernel lacks it or the lock limit is reached; the message names
  ///   the cause and the remedy.
  public init(
    capacity: Int = 0, locking policy: LockPolicy = .required, storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) {
    try self.init(capacity: capacity, policy: policy, storage: storage, arena: nil)
  }

  init(
    capacity: Int, policy: LockPolicy, storage: SecureStorage = .sodium, arena: SecureArena?
  ) throws(SecureMemoryError) {
    let (region, protection) = try BufferBacking.allocate(
      minimumCapacity: capacity, policy: policy, storage: storage, arena: arena)
    self.region = region
    self.count = 0
    self.policy = policy
    self.gate = AccessGate(protection: protection)
    self.arena = arena
    self.ownerProcess = Kernel.processID
  }

  /// A buffer on room carved from a ``SharedSecureRegion``.
  init(part: RegionPart, policy: LockPolicy) {
    self.region = .regionPart(part)
    self.count = 0
    self.policy = policy
    self.gate = AccessGate(protection: part.region.protection)
    self.arena = nil
    self.ownerProcess = Kernel.processID
  }

  /// Allocates a buffer holding a copy of `bytes`.
  ///
  /// Use it to move bytes that arrived in ordinary memory (a test oracle, a host
  /// framework's `String`) into secure memory at once; wipe the source yourself.
  public init(
    copying bytes: UnsafeRawBufferPointer, locking policy: LockPolicy = .required,
    storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) {
    var buffer = try SecureBuffer(capacity: bytes.count, locking: policy, storage: storage)
    try buffer.append(bytes)
    self = buffer
  }

  deinit {
    release(region)
  }

  /// Wipes and frees `region`, the buffer's current one or one it has just left,
  /// in the process that allocated it. In a forked child the data pages read as
  /// zeros (`MADV_WIPEONFORK`), canary included, or are not mapped at all
  /// (secret memory, `MADV_DONTFORK`): `sodium_free` would take the zero canary
  /// for an overrun and end the process, and there is nothing to wipe.
  func release(_ region: BufferBacking) {
    if ownerProcess == Kernel.processID || !gate.protection.isWipedOnFork {
      region.free()
    }
  }

  /// How many bytes the buffer holds without growing.
  public var capacity: Int { region.capacity }

  /// True when the buffer holds no bytes.
  public var isEmpty: Bool { count == 0 }

  /// The protections that hold for this buffer now, each verified by its effect.
  public var protection: Protection { gate.protection }

  /// The policy this buffer was allocated under; growth keeps it.
  public var lockPolicy: LockPolicy { policy }
}

/// Counts the open read windows and changes page protection under one lock.
///
/// With an atomic counter alone, the last reader's `PROT_NONE` could land after a
/// new reader had opened its window and begun to read.
final class AccessGate: Sendable {
  private struct State {
    var readers = 0
    var protection: Protection
  }
  private let state: Mutex<State>

  init(protection: Protection) {
    state = Mutex(State(protection: protection))
  }

  var protection: Protection { state.withLock { $0.protection } }

  func replaceProtection(_ protection: Protection) {
    state.withLock { $0.protection = protection }
  }

  /// Makes the region readable for the first reader in.
  ///
  /// A region that is not no-access outside windows (see
  /// ``GuardedRegion/closeWindow()``) stays read-write throughout, so its windows
  /// change nothing and cannot fail. An arena slot's window is counted by its
  /// slab, per page, under the slab's lock.
  func openRead(_ backing: BufferBacking) {
    guard case .ownRegion(let region) = backing else {
      Self.openWindow(sharing: backing, writable: false)
      return
    }
    state.withLock { state in
      if state.readers == 0 && state.protection.isInaccessibleOutsideWindows {
        precondition(
          region.protectReadOnly(),
          "SecureBuffer: mprotect(PROT_READ) on a buffer's own mapping failed")
      }
      state.readers += 1
    }
  }

  /// Makes the region no-access again when the last reader leaves.
  func closeRead(_ backing: BufferBacking) {
    guard case .ownRegion(let region) = backing else {
      Self.closeWindow(sharing: backing, writable: false)
      return
    }
    state.withLock { state in
      state.readers -= 1
      if state.readers == 0 { Self.close(region, &state) }
    }
  }

  func openWrite(_ backing: BufferBacking) {
    guard case .ownRegion(let region) = backing else {
      Self.openWindow(sharing: backing, writable: true)
      return
    }
    state.withLock { state in
      precondition(state.readers == 0, "SecureBuffer: write window opened while reading")
      if state.protection.isInaccessibleOutsideWindows {
        precondition(
          region.protectReadWrite(),
          "SecureBuffer: mprotect(PROT_READ|PROT_WRITE) on a buffer's own mapping failed")
      }
    }
  }

  func closeWrite(_ backing: BufferBacking) {
    guard case .ownRegion(let region) = backing else {
      Self.closeWindow(sharing: backing, writable: true)
      return
    }
    state.withLock { Self.close(region, &$0) }
  }

  /// Opens a write window over only the pages that hold `bytes` (offsets
  /// from the buffer's start) when the buffer is a region of its own and
  /// those pages are fewer than all of it; returns those pages, or nil when
  /// the whole region was opened instead (as ``openWrite(_:)`` does).
  ///
  /// An append into a large reserved buffer (a stream opened into 1 MiB)
  /// otherwise changes the protection of every page of its capacity, twice a
  /// chunk. Changing part of the mapping splits it, which needs free entries
  /// in the table of mappings: when the kernel refuses, the whole region is
  /// opened, which needs none.
  func openWrite(_ backing: BufferBacking, bytes: Range<Int>) -> Range<Int>? {
    guard case .ownRegion(let region) = backing, let pages = Self.pages(of: bytes, in: region)
    else {
      openWrite(backing)
      return nil
    }
    return state.withLock { state in
      precondition(state.readers == 0, "SecureBuffer: write window opened while reading")
      guard state.protection.isInaccessibleOutsideWindows else { return nil }
      let start = region.dataPages + pages.lowerBound
      if Kernel.protect(start, pages.count, .readWrite) == nil { return pages }
      precondition(
        region.protectReadWrite(),
        "SecureBuffer: mprotect(PROT_READ|PROT_WRITE) on a buffer's own mapping failed")
      return nil
    }
  }

  /// Closes a window ``openWrite(_:bytes:)`` opened: over `pages` when it
  /// returned them, else over the whole region.
  func closeWrite(_ backing: BufferBacking, pages: Range<Int>?) {
    guard let pages, case .ownRegion(let region) = backing else {
      closeWrite(backing)
      return
    }
    state.withLock { state in
      // Back to the flags of the pages around them: the split mapping merges
      // again. Should the kernel refuse, the whole region is closed instead.
      if Kernel.protect(region.dataPages + pages.lowerBound, pages.count, .none) != nil {
        Self.close(region, &state)
      }
    }
  }

  /// The byte offsets, from the region's first data page, of the whole pages
  /// holding `bytes`; nil when they are all of the region's pages (or none).
  private static func pages(of bytes: Range<Int>, in region: GuardedRegion) -> Range<Int>? {
    let pageSize = Kernel.pageSize
    let first = region.start - region.dataPages + bytes.lowerBound
    let end = region.start - region.dataPages + bytes.upperBound
    let lower = first / pageSize * pageSize
    let upper = min((end + pageSize - 1) / pageSize * pageSize, region.dataPagesCount)
    guard upper > lower, upper - lower < region.dataPagesCount else { return nil }
    return lower..<upper
  }

  /// A window on a buffer whose pages are counted elsewhere: an arena slot's
  /// by its slab, a shared region's part by its region.
  private static func openWindow(sharing backing: BufferBacking, writable: Bool) {
    switch backing {
    case .ownRegion, .sealed: break
    case .arenaSlot(let slot): slot.openWindow(writable: writable)
    case .regionPart(let part): part.openWindow(writable: writable)
    }
  }

  private static func closeWindow(sharing backing: BufferBacking, writable: Bool) {
    switch backing {
    case .ownRegion, .sealed: break
    case .arenaSlot(let slot): slot.closeWindow(writable: writable)
    case .regionPart(let part): part.closeWindow(writable: writable)
    }
  }

  private static func close(_ region: GuardedRegion, _ state: inout State) {
    if state.protection.isInaccessibleOutsideWindows && !region.closeWindow() {
      state.protection.isInaccessibleOutsideWindows = false
    }
  }
}
