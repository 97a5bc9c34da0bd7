import Glibc
import SecureMemory
import TestSupport
import Testing

@Suite("SecureBuffer: copies, reads to the end, random bytes, EPIPE")
struct SecureBufferTransferTests {
  func bytes(_ buffer: borrowing SecureBuffer) -> [UInt8] { buffer.withUnsafeBytes { Array($0) } }

  @Test("init(copying:) and append(contentsOf:) copy between secure buffers")
  func copies() throws {
    var first = try secureText("abc")
    let second = try SecureBuffer(copying: first)
    #expect(bytes(second) == Array("abc".utf8))
    #expect(second.lockPolicy == first.lockPolicy)
    try first.append(contentsOf: second)
    #expect(bytes(first) == Array("abcabc".utf8))
    let best = try SecureBuffer(copying: second, locking: .bestEffort)
    #expect(best.lockPolicy == .bestEffort)
    // Growth through append(contentsOf:): past the first region.
    let big = try SecureBuffer.random(count: 10_000)
    try first.append(contentsOf: big)
    #expect(first.count == 10_006)
    #expect(bytes(first)[6...] == bytes(big)[...])
  }

  @Test("read(from:upTo:) reads to end of file, or stops at the limit")
  func readToEnd() throws {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    let data = [UInt8](repeating: 0x41, count: 5000)
    _ = data.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    defer { close(ends[0]) }
    var buffer = try SecureBuffer()
    #expect(try buffer.read(from: ends[0], upTo: 3000) == .limitReached)
    #expect(buffer.count == 3000)
    #expect(try buffer.read(from: ends[0], upTo: 10_000) == .endOfFile)
    #expect(bytes(buffer) == data)
    let error = #expect(throws: SecureMemoryError.self) {
      try buffer.read(from: 9876, upTo: 10)
    }
    #expect(error?.code == .readFailed)
    #expect(error?.errno == EBADF)
  }

  @Test("random(count:) fills the count with bytes that differ between calls")
  func random() throws {
    let one = try SecureBuffer.random(count: 32)
    let two = try SecureBuffer.random(count: 32)
    #expect(one.count == 32)
    let same = one.constantTimeEquals(two)
    #expect(!same)
    #expect(bytes(one).contains { $0 != 0 })
    let none = try SecureBuffer.random(count: 0)
    let isEmpty = none.isEmpty
    #expect(isEmpty)
  }

  @Test(
    "random(count:storage:) and random(count:in:) put their bytes in the storage asked for, or a slot of the arena"
  )
  func randomInStorageAndArena() throws {
    let secret = try SecureBuffer.random(count: 32, storage: .secretMemory)
    #expect(secret.count == 32)
    #expect(secret.protection.storage == .secretMemory)
    #expect(bytes(secret).contains { $0 != 0 })
    let arena = try SecureArena(name: "random", storage: .sodium)
    let slot = try SecureBuffer.random(count: 32, in: arena)
    let neighbour = try SecureBuffer.random(count: 32, in: arena)
    let (isInArena, capacity) = (slot.isInArena, slot.capacity)
    #expect(isInArena && capacity == 32)
    #expect(slot.count == 32)
    let same = slot.constantTimeEquals(neighbour)
    #expect(!same)
    let large = try SecureBuffer.random(count: 3000, in: arena)
    let largeIsInArena = large.isInArena
    #expect(!largeIsInArena && large.count == 3000)
    // Control: the default stays sodium memory.
    #expect(try SecureBuffer.random(count: 8).protection.storage == .sodium)
  }

  @Test("secureZero wipes ordinary memory")
  func zero() {
    var plain: [UInt8] = Array("ordinary secret".utf8)
    plain.withUnsafeMutableBytes { secureZero($0) }
    #expect(plain.allSatisfy { $0 == 0 })
  }

  @Test("write(to:) into a closed pipe throws EPIPE and does not raise SIGPIPE")
  func brokenPipe() async {
    await #expect(processExitsWith: .success) {
      let writeEnd = writeEndWithNoReader()
      let secret = try! secureText("pw")
      let error = #expect(throws: SecureMemoryError.self) { try secret.write(to: writeEnd) }
      #expect(error?.errno == EPIPE)
      // No SIGPIPE was left pending for later either.
      var pending = sigset_t()
      sigpending(&pending)
      #expect(sigismember(&pending, SIGPIPE) == 0)
    }
  }

  @Test("control: the same write without the guard ends the process by SIGPIPE")
  func brokenPipeControl() async {
    await #expect(processExitsWith: .signal(SIGPIPE)) {
      let writeEnd = writeEndWithNoReader()
      var byte: UInt8 = 0
      _ = write(writeEnd, &byte, 1)
    }
  }

  @Test("Residue: a copy between buffers leaves two copies while both live, none after")
  func copyResidue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      do {
        let original = marker.unmaskedInSecureBuffer(capacity: 32)
        do {
          let copy = try! SecureBuffer(copying: original)
          var appended = try! SecureBuffer(capacity: 4)
          try! appended.append(contentsOf: copy)
          let three = try! ResidueScanner().scan(for: marker)
          #expect(three.copies == 3, "\(three)")
        }
        let one = try! ResidueScanner().scan(for: marker)
        #expect(one.copies == 1, "\(one)")
      }
      let none = try! ResidueScanner().scan(for: marker)
      #expect(none.copies == 0, "\(none)")
    }
  }
}
