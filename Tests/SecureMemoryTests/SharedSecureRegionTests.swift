import Glibc
import SecureMemory
import Testing

/// A `SharedSecureRegion`'s buffers: what they share (one protection state,
/// so nested windows cost one pair), and that each protection of the region
/// still holds, shown by its effect in an exit-test child: the guard pages
/// fault, the pages are no-access outside windows, a canary between two
/// buffers traps (the residue of a dropped buffer: `SharedSecureRegionResidueTests`).
@Suite("SharedSecureRegion: buffers side by side under one protection state")
struct SharedSecureRegionTests {
  @Test("buffers carved from a region keep their bytes apart and report the sharing")
  func buffersAreIndependent() throws {
    let region = try SharedSecureRegion(holding: [100, 20])
    var large = try SecureBuffer(capacity: 100, sharing: region)
    var small = try SecureBuffer(capacity: 20, sharing: region)
    let shared = (large.isInSharedRegion, small.isInSharedRegion)
    let capacities = (large.capacity, small.capacity)
    let protection = large.protection
    #expect(shared == (true, true))
    #expect(capacities == (112, 32))
    #expect(protection.isComplete && protection.sharesPagesWithOtherSecrets)
    try large.append(Array(repeating: 1, count: 112))
    try small.append(Array(repeating: 2, count: 32))
    #expect(large.withUnsafeBytes { $0.allSatisfy { $0 == 1 } })
    #expect(small.withUnsafeBytes { $0.allSatisfy { $0 == 2 } })
    #expect(region.remainingCapacity < 4096)
  }

  @Test("a buffer that outgrows its room moves to a region of its own, with its bytes")
  func growthLeavesTheRegion() throws {
    let region = try SharedSecureRegion(holding: [16])
    var buffer = try SecureBuffer(capacity: 16, sharing: region)
    try buffer.append(Array(1...16))
    try buffer.append(Array(17...40))
    let isShared = buffer.isInSharedRegion
    #expect(!isShared)
    #expect(buffer.withUnsafeBytes { Array($0) } == Array(1...40))
  }

  @Test("a region with no room left hands out a buffer of its own")
  func fullRegionFallsBack() throws {
    let region = try SharedSecureRegion(holding: [16])
    let first = try SecureBuffer(capacity: 16, sharing: region)
    let second = try SecureBuffer(capacity: region.remainingCapacity + 16, sharing: region)
    let shared = (first.isInSharedRegion, second.isInSharedRegion)
    let protection = second.protection
    #expect(shared == (true, false))
    #expect(protection.isComplete && !protection.sharesPagesWithOtherSecrets)
  }

  @Test("a write window on one buffer with another's nested inside: one protection pair")
  func nestedWindowsShareOnePair() async {
    await #expect(processExitsWith: .success) {
      let region = try! SharedSecureRegion(holding: [64, 16])
      var field = try! SecureBuffer(capacity: 64, sharing: region)
      var input = try! SecureBuffer(capacity: 16, sharing: region)
      try! input.append([7])
      var before = ProtectionChangeCount.current
      input.withUnsafeMutableBytes { key in
        try! field.append(UnsafeRawBufferPointer(key))
        #expect(field.withUnsafeBytes { Array($0) } == [7])
      }
      #expect(ProtectionChangeCount.current - before == 2)
      // Control: the same with two buffers of their own costs a pair each.
      var lone = try! SecureBuffer(capacity: 64)
      before = ProtectionChangeCount.current
      input.withUnsafeMutableBytes { key in try! lone.append(UnsafeRawBufferPointer(key)) }
      #expect(ProtectionChangeCount.current - before == 4)
    }
  }

  /// Where a test writes in a region: the first and last byte of its one
  /// buffer (the control), one past the first of two buffers, or before the
  /// region's lowest byte past its canaries.
  enum RegionEdge: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
    case inside
    case pastFirstBuffer
    case beforeLowestByte

    var testDescription: String {
      switch self {
      case .inside: "the first and last byte of a buffer"
      case .pastFirstBuffer: "one past the first buffer's end"
      case .beforeLowestByte: "before the region's lowest byte"
      }
    }

    var faults: Bool { self != .inside }

    /// The buffers the region holds; the test writes in the first.
    var sizes: [Int] { self == .pastFirstBuffer ? [64, 16] : [4048] }

    /// The offsets from the first buffer's first byte to write at. One page
    /// holds libsodium's canary, 16 bytes unused, the buffer's canary and the
    /// buffer (4,048 bytes): 49 bytes before the buffer is the guard page.
    func offsets(capacity: Int) -> [Int] {
      switch self {
      case .inside: [0, capacity - 1]
      case .pastFirstBuffer: [capacity]
      case .beforeLowestByte: [-48 - 1]
      }
    }
  }

  @Test(
    "the first and last byte of a buffer are writable (control); past the first buffer's end a write hits the trailing guard page, before the region's lowest byte the leading one",
    arguments: RegionEdge.allCases, [false, true])
  func writeAtRegionEdge(_ edge: RegionEdge, inSecretMemory: Bool) async {
    await #expect(processExitsWith: edge.faults ? .signal(SIGSEGV) : .success) {
      [edge, inSecretMemory] in
      let region = try! SharedSecureRegion(
        holding: edge.sizes, storage: arenaStorage(inSecretMemory))
      var buffer = try! SecureBuffer(capacity: edge.sizes[0], sharing: region)
      let others = edge.sizes.dropFirst().map {
        HeldBuffer(try! SecureBuffer(capacity: $0, sharing: region))
      }
      try! buffer.append([1])
      let capacity = buffer.capacity
      buffer.withUnsafeMutableBytes { bytes in
        for offset in edge.offsets(capacity: capacity) {
          (bytes.baseAddress! + offset).storeBytes(of: 7, as: UInt8.self)
        }
      }
      withExtendedLifetime(others) {}
    }
  }

  @Test(
    "reading a buffer through a pointer kept from a closed window faults; the same read inside a window on the other buffer succeeds (control)",
    arguments: [true, false], [false, true])
  func readThroughKeptPointer(afterClose: Bool, inSecretMemory: Bool) async {
    await #expect(processExitsWith: afterClose ? .signal(SIGSEGV) : .success) {
      [afterClose, inSecretMemory] in
      let region = try! SharedSecureRegion(
        holding: [64, 16], storage: arenaStorage(inSecretMemory))
      let first = try! SecureBuffer(capacity: 64, sharing: region)
      var second = try! SecureBuffer(capacity: 16, sharing: region)
      try! second.append([42])
      let escaped = second.withUnsafeBytes { $0.baseAddress! }
      let value: UInt8
      if afterClose {
        withExtendedLifetime(first) {}
        value = escaped.load(as: UInt8.self)
      } else {
        value = first.withUnsafeBytes { _ in escaped.load(as: UInt8.self) }
      }
      if value != 42 { exit(1) }
    }
  }

  @Test("writing past the second buffer's end into the canary traps when the window closes")
  func canaryOverwriteTraps() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let region = try! SharedSecureRegion(holding: [64, 16])
      let first = try! SecureBuffer(capacity: 64, sharing: region)
      var second = try! SecureBuffer(capacity: 16, sharing: region)
      try! second.append([1])
      let capacity = second.capacity
      second.withUnsafeMutableBytes { bytes in
        flipByte(at: UInt(bitPattern: bytes.baseAddress! + capacity))
      }
      withExtendedLifetime(first) {}
      exit(0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("SharedSecureRegion"), "\(message)")
  }
}
