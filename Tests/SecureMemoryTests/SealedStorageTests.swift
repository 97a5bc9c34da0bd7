import Dispatch
import Glibc
import SecureMemory
import Synchronization
import Testing

/// A sealed buffer of its own, or on a sealed arena: the two ways to have one.
struct SealedHome: CustomStringConvertible, Sendable {
  let description: String
  let make: @Sendable (Int) throws -> SecureBuffer

  static let ownStore = SealedHome(description: "sealed buffer") {
    try SecureBuffer(capacity: $0, storage: .sealed)
  }
  static let arena = SealedHome(description: "sealed arena slot") { capacity in
    try SecureBuffer(capacity: capacity, in: SecureArena(name: "sealed tests", storage: .sealed))
  }
  static let all = [ownStore, arena]
}

private func contents(_ buffer: borrowing SecureBuffer) -> [UInt8] {
  buffer.withUnsafeBytes { Array($0) }
}

/// `text`'s UTF-8 in a new buffer of `storage`: a test oracle's bytes.
func bufferHolding(_ text: String, storage: SecureStorage = .sealed) throws -> SecureBuffer {
  var buffer = try SecureBuffer(capacity: text.utf8.count, storage: storage)
  try Array(text.utf8).withUnsafeBytes { try buffer.append($0) }
  return buffer
}

@Suite("Sealed storage: every SecureBuffer API on ciphertext at rest")
struct SealedStorageTests {
  @Test("append, replace, remove, grow and read back", arguments: SealedHome.all)
  func editing(home: SealedHome) throws {
    var buffer = try home.make(8)
    #expect(buffer.protection.storage == .sealed)
    try Array("hello, world".utf8).withUnsafeBytes { try buffer.append($0) }
    #expect(contents(buffer) == Array("hello, world".utf8))
    try Array("there".utf8).withUnsafeBytes { try buffer.replaceSubrange(7..<12, with: $0) }
    #expect(contents(buffer) == Array("hello, there".utf8))
    buffer.removeSubrange(0..<7)
    #expect(contents(buffer) == Array("there".utf8))
    let long = [UInt8](repeating: 0x41, count: 5_000)
    try long.withUnsafeBytes { try buffer.append($0) }
    #expect(buffer.capacity >= 5_005)
    #expect(contents(buffer) == Array("there".utf8) + long)
    buffer.withUnsafeMutableBytes { $0[0] = 0x54 }
    #expect(contents(buffer).first == 0x54)
    buffer.removeAll()
    #expect(buffer.isEmpty && contents(buffer).isEmpty)
  }

  @Test("compare, copy, random, write to a pipe and read from one", arguments: SealedHome.all)
  func transfers(home: SealedHome) throws {
    var buffer = try home.make(32)
    try Array("s3cret-token".utf8).withUnsafeBytes { try buffer.append($0) }
    let same = try SecureBuffer(copying: buffer)
    let guarded = try bufferHolding("s3cret-token", storage: .sodium)
    #expect(same.protection.storage == .sealed, "a copy stays sealed")
    let equalsSame = buffer.constantTimeEquals(same)
    let equalsGuarded = buffer.constantTimeEquals(guarded) && guarded.constantTimeEquals(buffer)
    #expect(equalsSame && equalsGuarded)
    let other = try SecureBuffer.random(count: 12, storage: .sealed)
    let equalsOther = buffer.constantTimeEquals(other)
    #expect(!equalsOther)

    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    try buffer.write(to: ends[1])
    close(ends[1])
    var received = try home.make(4)
    let ending = try received.read(from: ends[0], upTo: 64)
    let equalsSent = received.constantTimeEquals(buffer)
    #expect(ending == .endOfFile && equalsSent)
  }

  @Test("nested windows on one thread: each open takes a slot of its own")
  func nestedWindows() throws {
    let outer = try bufferHolding("outer secret")
    let inner = try bufferHolding("the inner one")
    let seen = outer.withUnsafeBytes { outerBytes in
      inner.withUnsafeBytes { innerBytes in
        // Opened twice, nested: a third slot, the first two intact.
        outer.withUnsafeBytes { again in
          (
            Array(outerBytes), Array(innerBytes), Array(again),
            outerBytes.baseAddress != again.baseAddress
          )
        }
      }
    }
    #expect(seen.0 == Array("outer secret".utf8))
    #expect(seen.1 == Array("the inner one".utf8))
    #expect(seen.2 == Array("outer secret".utf8))
    #expect(seen.3)
  }

  @Test("eight threads read, compare and edit sealed buffers at once; every read is right")
  func threads() throws {
    let table = try SecretTable<Int>(name: "sealed threads")
    try table.insert(copying: try bufferHolding("shared by all"), for: 0)
    let wrong = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      var own = try! SecureBuffer(capacity: 16, storage: .sealed)
      for round in 0..<500 {
        try! [UInt8(thread), UInt8(truncatingIfNeeded: round)].withUnsafeBytes {
          try own.append($0)
        }
        let read = table.withSecret(for: 0) { Array($0) }
        if read != Array("shared by all".utf8) { wrong.add(1, ordering: .relaxed) }
        let last = own.withUnsafeBytes { [$0[$0.count - 2], $0[$0.count - 1]] }
        if last != [UInt8(thread), UInt8(truncatingIfNeeded: round)] {
          wrong.add(1, ordering: .relaxed)
        }
        if own.count > 64 { own.removeSubrange(0..<32) }
      }
    }
    #expect(wrong.load(ordering: .relaxed) == 0)
  }
}
