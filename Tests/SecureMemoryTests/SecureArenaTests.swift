import Glibc
import SecureMemory
import TestSupport
import Testing

/// A buffer on `arena` holding a copy of `contents`.
func arenaBuffer(_ contents: [UInt8], in arena: SecureArena) throws -> SecureBuffer {
  var buffer = try SecureBuffer(capacity: contents.count, in: arena)
  try buffer.append(contents)
  return buffer
}

/// The address of a buffer's first byte, taken inside a window; only the value
/// leaves it.
func address(of buffer: borrowing SecureBuffer) -> UInt {
  buffer.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
}

/// The page that holds `address`.
func page(of address: UInt) -> UInt { address & ~UInt(pageSize - 1) }

@Suite("SecureArena: SecureBuffer's API on slots of a shared slab")
struct SecureArenaTests {
  struct SizeCase: CustomTestStringConvertible, Sendable {
    let requested: Int
    let slotSize: Int
    var testDescription: String { "\(requested) bytes get a \(slotSize)-byte slot" }
  }

  @Test(
    "a request gets the smallest size class that holds it",
    arguments: [
      SizeCase(requested: 0, slotSize: 32), SizeCase(requested: 1, slotSize: 32),
      SizeCase(requested: 32, slotSize: 32), SizeCase(requested: 33, slotSize: 64),
      SizeCase(requested: 200, slotSize: 256), SizeCase(requested: 1025, slotSize: 2048),
      SizeCase(requested: 2048, slotSize: 2048),
    ])
  func sizeClasses(_ size: SizeCase) throws {
    let arena = try SecureArena(storage: .strongestAvailable)
    let buffer = try SecureBuffer(capacity: size.requested, in: arena)
    let (capacity, isInArena, isEmpty) = (buffer.capacity, buffer.isInArena, buffer.isEmpty)
    #expect(capacity == size.slotSize)
    #expect(isInArena)
    #expect(isEmpty)
    #expect(arena.slabCount == 1)
  }

  @Test(
    "more than 2,048 bytes get a region of their own, with its own protection, in the arena's storage",
    arguments: [SecureStorage.sodium, .secretMemory])
  func largeRequestsGetTheirOwnRegion(storage: SecureStorage) throws {
    let arena = try SecureArena(storage: storage)
    let buffer = try SecureBuffer(capacity: 2049, in: arena)
    let (capacity, isInArena, protection) = (buffer.capacity, buffer.isInArena, buffer.protection)
    #expect(!isInArena)
    #expect(capacity >= 2049)
    #expect(protection.isComplete && !protection.sharesPagesWithOtherSecrets, "\(protection)")
    #expect(protection.storage == storage)
    #expect(protection.isHiddenFromKernel == (storage == .secretMemory))
    #expect(arena.slabCount == 0)
  }

  @Test("a slot's protection: the slab's, complete, and shared pages said out loud")
  func slotProtection() throws {
    let arena = try SecureArena(storage: .sodium)
    let buffer = try SecureBuffer(capacity: 16, in: arena)
    let protection = buffer.protection
    #expect(protection.isComplete)
    #expect(protection.sharesPagesWithOtherSecrets)
    #expect(protection != .complete)
    #expect(protection.description.hasSuffix("pages shared with other secrets"), "\(protection)")
    // Control: a buffer of its own shares nothing.
    let own = try SecureBuffer(capacity: 16)
    let ownProtection = own.protection
    #expect(!ownProtection.sharesPagesWithOtherSecrets)
  }

  @Test("slots of one class lie side by side, 48 bytes apart for 32-byte secrets")
  func slotsArePacked() throws {
    let arena = try SecureArena(storage: .strongestAvailable)
    let first = try SecureBuffer(capacity: 32, in: arena)
    let second = try SecureBuffer(capacity: 32, in: arena)
    #expect(address(of: second) - address(of: first) == 48)
    #expect(page(of: address(of: first)) == page(of: address(of: second)))
  }

  @Test("editing, reading back and comparing work as on a buffer of its own")
  func editing() throws {
    let arena = try SecureArena(storage: .strongestAvailable)
    var buffer = try arenaBuffer(Array("hunter".utf8), in: arena)
    try Array("2!".utf8).withUnsafeBytes { try buffer.append($0) }
    try Array("H".utf8).withUnsafeBytes { try buffer.replaceSubrange(0..<1, with: $0) }
    buffer.removeSubrange(7..<8)
    #expect(bytes(of: buffer) == Array("Hunter2".utf8))
    buffer.withUnsafeMutableBytes { $0[0] = UInt8(ascii: "h") }

    let same = try arenaBuffer(Array("hunter2".utf8), in: arena)
    let other = try arenaBuffer(Array("hunter3".utf8), in: arena)
    let own = try makeBuffer(Array("hunter2".utf8))
    let equalsSame = buffer.constantTimeEquals(same)
    let equalsOther = buffer.constantTimeEquals(other)
    let equalsOwn = buffer.constantTimeEquals(own)
    #expect(equalsSame)
    #expect(!equalsOther)
    #expect(equalsOwn)

    buffer.removeAll()
    let (isEmpty, capacity) = (buffer.isEmpty, buffer.capacity)
    #expect(isEmpty)
    #expect(capacity == 32)
    let windowCount = buffer.withUnsafeMutableBytes { $0.count }
    #expect(windowCount == 0)
  }

  @Test(
    "growth moves to the next class that holds it, then past 2,048 bytes to a region of its own in the arena's storage",
    arguments: [SecureStorage.sodium, .secretMemory])
  func growth(storage: SecureStorage) throws {
    let arena = try SecureArena(storage: storage)
    var buffer = try SecureBuffer(capacity: 8, in: arena)
    var expected: [UInt8] = []
    var capacities: [Int] = []
    for round in 0..<9 {
      let chunk = [UInt8](repeating: UInt8(round + 1), count: 40 << round / 2 + 1)
      try chunk.withUnsafeBytes { try buffer.append($0) }
      expected += chunk
      capacities.append(buffer.capacity)
      #expect(bytes(of: buffer) == expected)
    }
    #expect(capacities.first == 32)
    #expect(capacities.contains(2048))
    let isInArena = buffer.isInArena
    #expect(!isInArena)
    let protection = buffer.protection
    #expect(
      protection.isComplete && !protection.sharesPagesWithOtherSecrets,
      "a region of its own shares no page: \(protection)")
    #expect(protection.storage == storage, "\(protection)")
    #expect(capacities == capacities.sorted())
    try buffer.reserveCapacity(100_000)
    #expect(bytes(of: buffer) == expected)
    #expect(buffer.protection.storage == storage)
  }

  @Test("reads from and writes to a descriptor straight from the slot")
  func descriptors() throws {
    let arena = try SecureArena(storage: .strongestAvailable)
    let pipe = try Pipe()
    pipe.send(Array("correct horse".utf8))
    var buffer = try SecureBuffer(in: arena)
    let outcome = try buffer.read(from: pipe.readEnd, maximumCount: 64)
    #expect(outcome == .bytes(13))
    #expect(buffer.isInArena && buffer.capacity == 64, "grown to the class that holds 64")
    #expect(bytes(of: buffer) == Array("correct horse".utf8))
    try buffer.write(to: pipe.writeEnd, range: 8..<13)
    #expect(pipe.receive() == Array("horse".utf8))
  }

  @Test("an empty slab goes back to the system; one spare per class stays while no other has room")
  func emptySlabsAreReturned() async {
    // VmLck is the process's: read it where no parallel test allocates.
    await #expect(processExitsWith: .success) {
      let arena = try! SecureArena(storage: .strongestAvailable)
      let lockedBefore = try! statusValue("VmLck")!
      var held: [HeldBuffer] = []
      // Three slabs of 32-byte slots (1,365 each) and one more secret.
      for _ in 0..<(3 * 1365 + 1) { held.append(HeldBuffer(try! SecureBuffer(in: arena))) }
      #expect(arena.slabCount == 4)
      let lockedFull = try! statusValue("VmLck")!
      #expect(lockedFull - lockedBefore == 4 * 64, "VmLck \(lockedBefore) -> \(lockedFull) kB")

      // Emptying the first slab returns it: other slabs have room.
      held.removeFirst(1365)
      #expect(arena.slabCount == 3)
      held.removeAll()
      #expect(arena.slabCount == 1, "the last one stays as the spare")
      let lockedEmpty = try! statusValue("VmLck")!
      #expect(lockedEmpty - lockedBefore == 64, "VmLck \(lockedEmpty) kB")

      // The spare serves the next secret; once another slab has room it goes.
      let again = try! SecureBuffer(in: arena)
      #expect(arena.slabCount == 1)
      _ = consume again
      #expect(arena.slabCount == 1)
    }
  }

  @Test(
    "a slab's pages are locked (lo), kept out of core dumps (dd), wiped on fork (wf), no-access between guard pages"
  )
  func slabPagesInSmaps() throws {
    let arena = try SecureArena(storage: .sodium)
    let buffer = try SecureBuffer(in: arena)
    let start = address(of: buffer)
    let map = try MemoryMap()
    let data = try #require(map.mapping(containing: start))
    #expect(data.flags.isSuperset(of: ["lo", "dd", "wf"]), "\(data)")
    #expect(data.isNoAccess, "\(data)")
    // Each page is a mapping of its own, so a window changes one whole mapping.
    #expect(data.range.count == pageSize, "\(data)")
    let slabStart = data.range.lowerBound
    let slabEnd = slabStart + UInt(SecureArena.slabSize)
    var pages: [Mapping] = []
    for page in stride(from: slabStart, to: slabEnd, by: pageSize) {
      pages.append(try #require(map.mapping(containing: page)))
    }
    #expect(pages.allSatisfy { $0.range.count == pageSize && $0.isNoAccess }, "\(pages)")
    #expect(pages.allSatisfy { $0.flags.isSuperset(of: ["lo", "dd", "wf"]) }, "\(pages)")
    let before = try #require(map.mapping(containing: slabStart - 1))
    let after = try #require(map.mapping(containing: slabEnd))
    #expect(before.isNoAccess && after.isNoAccess, "\(before) \(after)")
    #expect(before.flags.isDisjoint(with: ["lo"]), "guard pages are not the slab's data")
  }

  @Test("a window opens its page alone, read-only; the rest of the slab stays no-access")
  func windowOpensOnePage() throws {
    let arena = try SecureArena(storage: .sodium)
    let buffer = try SecureBuffer(in: arena)
    let start = address(of: buffer)
    let (inside, slabStart) = try buffer.withUnsafeBytes { _ in
      let map = try MemoryMap()
      return (map, map.mapping(containing: start)!.range.lowerBound)
    }
    let open = try #require(inside.mapping(containing: start))
    #expect(open.permissions == "r--p", "\(open)")
    #expect(open.range == page(of: start)..<page(of: start) + UInt(pageSize), "\(open)")
    let rest = try #require(inside.mapping(containing: page(of: start) + UInt(pageSize)))
    #expect(rest.isNoAccess, "\(rest)")
    #expect(slabStart == page(of: start))
    let after = try MemoryMap()
    #expect(after.mapping(containing: start)?.isNoAccess == true)
  }
}
