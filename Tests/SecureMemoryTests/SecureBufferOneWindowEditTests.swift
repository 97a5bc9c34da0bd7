import SecureMemory
import Glibc
import Testing

/// The calls that look at a buffer and change it in one read-write window:
/// what they do, and that they cost one protection pair, counted by the
/// `ProtectionChangeCount` seam in a child process of their own (the count is
/// process-wide, and tests run in parallel).
@Suite("SecureBuffer plans and writes in one window")
struct SecureBufferOneWindowEditTests {
  struct Refusal: Error {}

  @Test("replaceSubrange(_:with:checkingFirst:) shows the old bytes, then replaces")
  func checkedReplace() throws {
    var buffer = try makeBuffer([1, 2, 3, 4])
    var seen: [UInt8] = []
    try ([9, 9] as [UInt8]).withUnsafeBytes { replacement in
      try buffer.replaceSubrange(1..<2, with: replacement) { old in seen = Array(old) }
    }
    #expect(seen == [1, 2, 3, 4])
    #expect(bytes(of: buffer) == [1, 9, 9, 3, 4])
  }

  @Test("a check that refuses leaves the bytes as they were")
  func refusedReplace() throws {
    var buffer = try makeBuffer([1, 2, 3, 4])
    #expect(throws: AppendError<Refusal>.self) {
      try ([9] as [UInt8]).withUnsafeBytes { replacement in
        try buffer.replaceSubrange(0..<4, with: replacement) { _ throws(Refusal) in throw Refusal()
        }
      }
    }
    #expect(bytes(of: buffer) == [1, 2, 3, 4])
  }

  @Test("withUnsafeBytesRemovingPrefix removes what the body says, and zeroes the tail")
  func removingPrefix() throws {
    var buffer = try makeBuffer([1, 2, 3, 4, 5])
    let sum = buffer.withUnsafeBytesRemovingPrefix { bytes, removing in
      removing = 3
      // The pointer keeps the bytes it saw while the body runs.
      return bytes.reduce(0) { $0 + Int($1) }
    }
    #expect(sum == 15)
    #expect(bytes(of: buffer) == [4, 5])
    #expect(Self.spare(of: buffer, upTo: 5) == [0, 0, 0])
  }

  @Test("a body that throws still removes what it consumed")
  func removingPrefixThrows() throws {
    var buffer = try makeBuffer([1, 2, 3])
    #expect(throws: Refusal.self) {
      try buffer.withUnsafeBytesRemovingPrefix { (_, removing: inout Int) throws(Refusal) in
        removing = 1
        throw Refusal()
      }
    }
    #expect(bytes(of: buffer) == [2, 3])
  }

  @Test("append(atMost:receivingWith:thenRemovingPrefix:) shows old and new bytes together")
  func appendThenRemove() throws {
    var buffer = try makeBuffer([1, 2])
    let seen = try buffer.append(
      atMost: 8,
      receivingWith: { spare in
        spare[0] = 3
        spare[1] = 4
        return 2
      },
      thenRemovingPrefix: { (bytes, removing: inout Int) throws(Never) in
        removing = 3
        return Array(bytes)
      })
    #expect(seen == [1, 2, 3, 4])
    #expect(bytes(of: buffer) == [4])
    #expect(Self.spare(of: buffer, upTo: 4) == [0, 0, 0])
  }

  @Test("nothing received: nothing appended, the body not called")
  func appendNothing() throws {
    var buffer = try makeBuffer([1])
    var called = false
    let result: Void? = try buffer.append(
      atMost: 4, receivingWith: { _ in -1 },
      thenRemovingPrefix: { (_, _: inout Int) throws(Never) in called = true })
    #expect(result == nil)
    #expect(!called)
    #expect(bytes(of: buffer) == [1])
  }

  @Test("each of them costs exactly one protection pair")
  func onePairEach() async {
    await #expect(processExitsWith: .success) {
      var buffer = try! makeBuffer(Array(repeating: 0x61, count: 64))
      var before = ProtectionChangeCount.current
      try! ([0x62] as [UInt8]).withUnsafeBytes { replacement in
        try buffer.replaceSubrange(32..<32, with: replacement) { _ in }
      }
      #expect(ProtectionChangeCount.current - before == 2)
      before = ProtectionChangeCount.current
      buffer.withUnsafeBytesRemovingPrefix { _, removing in removing = 1 }
      #expect(ProtectionChangeCount.current - before == 2)
      before = ProtectionChangeCount.current
      _ = try! buffer.append(
        atMost: 1,
        receivingWith: { spare in
          spare[0] = 0x63
          return 1
        }, thenRemovingPrefix: { (_, removing: inout Int) throws(Never) in removing = 1 })
      #expect(ProtectionChangeCount.current - before == 2)
      // Control: the same look and change made as two calls is two pairs.
      before = ProtectionChangeCount.current
      _ = buffer.withUnsafeBytes { $0.count }
      buffer.removeSubrange(0..<1)
      #expect(ProtectionChangeCount.current - before == 4)
    }
  }

  @Test(
    "read(from:thenConsuming:) shows old and new bytes in the read's window, removes what it returns"
  )
  func readThenConsume() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    var buffer = try makeBuffer([1, 2])
    #expect(([3, 4] as [UInt8]).withUnsafeBytes { write(ends[1], $0.baseAddress, 2) } == 2)
    var seen: [UInt8] = []
    let outcome = try buffer.read(from: ends[0], maximumCount: 8, timeout: .zero) { bytes in
      seen = Array(bytes)
      return 3
    }
    #expect(outcome == .bytes(2))
    #expect(seen == [1, 2, 3, 4])
    #expect(bytes(of: buffer) == [4])
    #expect(Self.spare(of: buffer, upTo: 4) == [0, 0, 0])

    // Nothing waiting: timed out, the body not called; then end of file.
    var called = false
    #expect(
      try buffer.read(from: ends[0], timeout: .zero) { _ in
        called = true; return 0
      } == .timedOut)
    close(ends[1])
    #expect(
      try buffer.read(from: ends[0], timeout: .zero) { _ in
        called = true; return 0
      } == .endOfFile)
    #expect(!called)
    #expect(bytes(of: buffer) == [4])
  }

  /// The bytes after `count`, up to `end`: what was freed must read as zeros.
  static func spare(of buffer: borrowing SecureBuffer, upTo end: Int) -> [UInt8] {
    var copy: [UInt8] = []
    let count = buffer.count
    buffer.withUnsafeBytes { bytes in
      copy = Array(UnsafeRawBufferPointer(start: bytes.baseAddress! + count, count: end - count))
    }
    return copy
  }
}

@Suite("SecureBuffer's own copy moves an overlapping tail right")
struct SecureBufferOverlappingMoveTests {
  @Test("inserting shifts every tail length and distance as an array does")
  func everyShift() throws {
    // Tails of 0 to 40 bytes cover the eight-byte steps of the backward copy
    // and every remainder; distances of 1 to 9 each overlap it differently.
    for tailCount in 0...40 {
      for distance in 1...9 {
        let original = (0..<(3 + tailCount)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
        let inserted = (0..<distance).map { UInt8(200 + $0) }
        var buffer = try makeBuffer(original)
        try buffer.replaceSubrange(3..<3, with: inserted)
        var expected = original
        expected.insert(contentsOf: inserted, at: 3)
        #expect(bytes(of: buffer) == expected, "tail \(tailCount), distance \(distance)")
      }
    }
  }
}
