import Glibc
import SecureMemory
import Testing

/// Flips every bit of the byte at `address` (a canary is random: storing a
/// constant would leave it unchanged one run in 256).
func flipByte(at address: UInt) {
  let pointer = UnsafeMutableRawPointer(bitPattern: address)!
  pointer.storeBytes(of: ~pointer.load(as: UInt8.self), as: UInt8.self)
}

/// The storage of an arena under test: secret memory (`memfd_secret`) or
/// sodium memory. A `Bool` rather than a ``SecureStorage``, so that an exit
/// test can capture it.
func arenaStorage(_ inSecretMemory: Bool) -> SecureStorage {
  inSecretMemory ? .secretMemory : .sodium
}

/// Each protection of a slab shown by the crash it causes, beside a control
/// that does the same within bounds and exits cleanly. The slot handed out
/// first sits right after the slab's leading guard page (and libsodium's
/// canary); the last of a full slab ends at its trailing guard page. Every
/// test runs for a sodium slab and for a secret-memory slab, whose region
/// keeps the same layout.
@Suite("SecureArena protections end the process on misuse")
struct SecureArenaCrashTests {
  /// Fills one slab of 32-byte slots and returns them, first to last.
  static func fullSlab(in arena: SecureArena) -> [HeldBuffer] {
    let first = try! SecureBuffer(in: arena)
    let slab = arena.slabCount
    var held = [HeldBuffer(first)]
    while true {
      let next = try! SecureBuffer(in: arena)
      if arena.slabCount != slab { break }
      held.append(HeldBuffer(next))
    }
    return held
  }

  /// Where a test writes in a full slab: the first and last byte of its
  /// first or last slot (the control), or past libsodium's 16-byte canary
  /// before the first slot or after the last, into a guard page.
  enum SlabEdge: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
    case insideFirstSlot
    case insideLastSlot
    case beforeFirstSlot
    case pastLastSlot

    var testDescription: String {
      switch self {
      case .insideFirstSlot: "the first and last byte of the first slot"
      case .insideLastSlot: "the first and last byte of the last slot"
      case .beforeFirstSlot: "before the first slot, past its canary"
      case .pastLastSlot: "past the last slot's canary"
      }
    }

    var faults: Bool { self == .beforeFirstSlot || self == .pastLastSlot }
    var inLastSlot: Bool { self == .insideLastSlot || self == .pastLastSlot }

    /// The offsets from a slot's first byte to write at.
    func offsets(capacity: Int) -> [Int] {
      switch self {
      case .insideFirstSlot, .insideLastSlot: [0, capacity - 1]
      case .beforeFirstSlot: [-16 - 1]
      case .pastLastSlot: [capacity + 16]
      }
    }
  }

  @Test(
    "writes inside the first and last slot of a full slab are allowed (control); before the first slot's canary one hits the leading guard page, past the last slot's the trailing one",
    arguments: SlabEdge.allCases, [false, true])
  func writeAtSlabEdge(_ edge: SlabEdge, inSecretMemory: Bool) async {
    await #expect(processExitsWith: edge.faults ? .signal(SIGSEGV) : .success) {
      [edge, inSecretMemory] in
      let arena = try! SecureArena(name: "edges", storage: arenaStorage(inSecretMemory))
      let buffers = SecureArenaCrashTests.fullSlab(in: arena)
      #expect(buffers.count == 1365)
      let slot = edge.inLastSlot ? buffers[buffers.count - 1] : buffers[0]
      let capacity = slot.buffer.capacity
      try! slot.buffer.append([1])
      slot.buffer.withUnsafeMutableBytes { bytes in
        for offset in edge.offsets(capacity: capacity) {
          (bytes.baseAddress! + offset).storeBytes(of: 7, as: UInt8.self)
        }
      }
    }
  }

  @Test(
    "reading through a pointer kept from a closed window, or writing through a read window, faults",
    arguments: WindowMisuse.allCases, [false, true])
  func windowMisuseFaults(_ misuse: WindowMisuse, inSecretMemory: Bool) async {
    await #expect(processExitsWith: .signal(SIGSEGV)) { [misuse, inSecretMemory] in
      let arena = try! SecureArena(storage: arenaStorage(inSecretMemory))
      var buffer = try! SecureBuffer(in: arena)
      try! buffer.append([42])
      misuse.commit(on: buffer)
    }
  }

  @Test(
    "the honest cost: a neighbour on the same page is readable while another secret's window is open, and faults once it closes",
    arguments: [false, true], [false, true])
  func windowOpensTheWholePage(afterClose: Bool, inSecretMemory: Bool) async {
    // The neighbour's byte is read through a pointer from its own earlier
    // window: inside, while only the other secret's window is open; after,
    // once that window closed too.
    await #expect(processExitsWith: afterClose ? .signal(SIGSEGV) : .success) {
      [afterClose, inSecretMemory] in
      let arena = try! SecureArena(storage: arenaStorage(inSecretMemory))
      let neighbour = try! arenaBuffer([42], in: arena)
      let other = try! arenaBuffer([7], in: arena)
      let escaped = neighbour.withUnsafeBytes { $0.baseAddress! }
      let value: UInt8
      if afterClose {
        other.withUnsafeBytes { _ in }
        value = escaped.load(as: UInt8.self)
      } else {
        value = other.withUnsafeBytes { _ in escaped.load(as: UInt8.self) }
      }
      if value != 42 { exit(1) }
    }
  }

  @Test(
    "windows are counted per page: one secret's window closing leaves the page open under its neighbour's",
    arguments: [false, true])
  func windowsCountedPerPage(inSecretMemory: Bool) async {
    await #expect(processExitsWith: .success) { [inSecretMemory] in
      let arena = try! SecureArena(storage: arenaStorage(inSecretMemory))
      let first = try! arenaBuffer([1], in: arena)
      let second = try! arenaBuffer([2], in: arena)
      let read = first.withUnsafeBytes { outer in
        // The neighbour's whole window, opened and closed inside the first's.
        _ = second.withUnsafeBytes { $0[0] }
        return outer[0]
      }
      if read != 1 { exit(1) }
    }
  }

  @Test("control: dropping every slot of an intact slab exits cleanly", arguments: [false, true])
  func intactSlotsFreeCleanly(inSecretMemory: Bool) async {
    await #expect(processExitsWith: .success) { [inSecretMemory] in
      let arena = try! SecureArena(name: "tenant tokens", storage: arenaStorage(inSecretMemory))
      var buffers = SecureArenaCrashTests.fullSlab(in: arena)
      for held in buffers { held.buffer.withUnsafeMutableBytes { _ in } }
      buffers.removeAll()
    }
  }

  @Test(
    "a write past a slot's end traps when its window closes, naming the arena and the size class",
    arguments: [false, true])
  func canaryOverwriteTrapsAtWindowClose(inSecretMemory: Bool) async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [inSecretMemory] in
      let arena = try! SecureArena(name: "tenant tokens", storage: arenaStorage(inSecretMemory))
      var buffer = try! SecureBuffer(capacity: 64, in: arena)
      let neighbour = try! SecureBuffer(capacity: 64, in: arena)
      try! buffer.append([1])
      let capacity = buffer.capacity
      buffer.withUnsafeMutableBytes { bytes in
        flipByte(at: UInt(bitPattern: bytes.baseAddress! + capacity))
      }
      // Not reached: the window's close found the canary.
      withExtendedLifetime(neighbour) {}
      exit(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("SecureArena \"tenant tokens\""), "\(message)")
    #expect(message.contains("size class 64"), "\(message)")
  }

  @Test(
    "a canary overwritten from another secret's window on the page traps when its slot is freed",
    arguments: [false, true])
  func canaryOverwriteTrapsAtFree(inSecretMemory: Bool) async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
    ) { [inSecretMemory] in
      let arena = try! SecureArena(name: "session keys", storage: arenaStorage(inSecretMemory))
      let victim = try! SecureBuffer(capacity: 32, in: arena)
      let between = try! SecureBuffer(capacity: 32, in: arena)
      var far = try! SecureBuffer(capacity: 32, in: arena)
      let canary = address(of: victim) + UInt(victim.capacity)
      // A stray write inside another secret's write window, two slots away:
      // that window's close checks only its own neighbours.
      far.withUnsafeMutableBytes { _ in flipByte(at: canary) }
      print("far window closed")
      fflush(nil)
      _ = consume victim
      withExtendedLifetime(between) {}
      exit(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    #expect(output.contains("far window closed"), "the trap came at the free, not before")
    #expect(message.contains("SecureArena \"session keys\""), "\(message)")
    #expect(message.contains("size class 32"), "\(message)")
  }
}
