import Glibc
import SecureMemory
import TestSupport
import Testing

/// An append into a large buffer opens only the pages the new bytes take:
/// shown by a fault one page past them, by the pages the map shows inside the
/// window, and by the mappings that merge again after it.
@Suite("An append opens only the pages it writes")
struct AppendWindowTests {
  /// A buffer with 256 KiB reserved and one byte held.
  static func reserved() -> SecureBuffer {
    var buffer = try! SecureBuffer(capacity: 256 * 1024)
    try! buffer.append([UInt8(1)])
    return buffer
  }

  @Test("control: writing the new bytes' own page inside the window works")
  func ownPageIsWritable() async {
    await #expect(processExitsWith: .success) {
      var buffer = AppendWindowTests.reserved()
      try! buffer.append(count: 16) { (spare) throws(Never) in
        spare.baseAddress!.storeBytes(of: 7, as: UInt8.self)
        (spare.baseAddress! + 15).storeBytes(of: 7, as: UInt8.self)
      }
      if buffer.count != 17 { exit(1) }
    }
  }

  @Test("writing a page the append does not take faults")
  func farPageFaults() async {
    await #expect(processExitsWith: .signal(SIGSEGV)) {
      var buffer = AppendWindowTests.reserved()
      try! buffer.append(count: 16) { (spare) throws(Never) in
        (spare.baseAddress! + 128 * 1024).storeBytes(of: 7, as: UInt8.self)
      }
    }
  }

  @Test("inside the window the map shows one open page; after it, one mapping again")
  func mappingsMergeAfter() throws {
    var buffer = AppendWindowTests.reserved()
    let pages = BufferPages(buffer)
    var inside: Mapping?
    var holdsWholeBuffer = true
    try buffer.append(count: 16) { (spare) throws(Never) in
      let map = try? MemoryMap()
      inside = map?.mapping(containing: UInt(bitPattern: spare.baseAddress!))
      holdsWholeBuffer = map?.mapping(containing: pages.lastDataByte)?.isNoAccess == false
    }
    let after = try #require(try MemoryMap().mapping(containing: pages.dataStart))
    let open = try #require(inside)
    #expect(open.permissions.hasPrefix("rw"), "\(open)")
    #expect(open.range.count == pageSize, "one page, not the buffer's 65: \(open)")
    #expect(!holdsWholeBuffer, "the buffer's last page stays no-access")
    #expect(after.range == pages.dataStart..<pages.dataEnd, "merged again: \(after)")
    #expect(after.isNoAccess, "\(after)")
    #expect(buffer.count == 17)
  }
}

@Suite("Sealing into a reused array")
struct SealIntoTests {
  @Test("the chunks are the ones seal(_:isFinal:) makes, and they open")
  func sameChunks() throws {
    var key = try SecureBuffer(capacity: SecretStream.keyByteCount)
    try key.append(Array(repeating: UInt8(9), count: SecretStream.keyByteCount))
    var plaintext = try SecureBuffer(capacity: 300)
    try plaintext.append((0..<300).map { UInt8(truncatingIfNeeded: $0) })
    var sealer = try SecretStream.Sealer(key: key)
    var chunks: [[UInt8]] = []
    var reused = [UInt8](repeating: 0xEE, count: 1000)
    for (index, range) in [0..<100, 100..<300, 300..<300].enumerated() {
      sealer.seal(plaintext, range: range, isFinal: index == 2, into: &reused)
      #expect(reused.count == range.count + SecretStream.chunkOverhead)
      chunks.append(reused)
    }
    var opener = try SecretStream.Opener(key: key, header: sealer.header)
    var opened = try SecureBuffer(capacity: 300)
    for (index, chunk) in chunks.enumerated() {
      #expect(try opener.open(chunk, into: &opened) == (index == 2))
    }
    try opener.finish()
    let equal = opened.constantTimeEquals(plaintext)
    #expect(equal)
  }
}
