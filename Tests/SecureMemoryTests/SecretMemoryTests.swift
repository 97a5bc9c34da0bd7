import Glibc
import SecureMemory
import TestSupport
import Testing

/// The `errno` of a one-byte `pread` of this process's `/proc/self/mem` at
/// `address`, or nil when it read: the test's own look, not the library's.
func procMemReadError(at address: UInt) -> Int32? {
  let memory = open("/proc/self/mem", O_RDONLY)
  guard memory >= 0 else { return errno }
  defer { close(memory) }
  var byte: UInt8 = 0
  let got = pread(memory, &byte, 1, off_t(Int64(bitPattern: UInt64(address))))
  return got == 1 ? nil : errno
}

/// A `SecureBuffer` in secret memory (`memfd_secret`), each property checked by
/// its effect beside a sodium buffer that must differ where the backings differ.
@Suite("SecureBuffer in secret memory")
struct SecretMemoryTests {
  @Test("holds, edits and grows its bytes like a sodium buffer, and stays in secret memory")
  func editsAndGrows() throws {
    var buffer = try SecureBuffer(capacity: 10, storage: .secretMemory)
    #expect(buffer.protection.storage == .secretMemory)
    let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try bytes.withUnsafeBytes { try buffer.append($0) }
    #expect(buffer.capacity >= 5000)
    try [UInt8](repeating: 1, count: 3).withUnsafeBytes {
      try buffer.replaceSubrange(0..<100, with: $0)
    }
    let expected = [1, 1, 1] + bytes[100...]
    #expect(SecureMemoryTests.bytes(of: buffer) == Array(expected))
    #expect(buffer.protection.storage == .secretMemory, "growth keeps the backing")
    #expect(buffer.protection.isHiddenFromKernel)
  }

  @Test("compares in constant time against a sodium buffer with the same bytes")
  func comparesAcrossBackings() throws {
    let word: [UInt8] = Array("correct horse".utf8)
    var secret = try SecureBuffer(capacity: word.count, storage: .secretMemory)
    try secret.append(word)
    var sodium = try SecureBuffer(capacity: word.count)
    try sodium.append(word)
    let same = secret.constantTimeEquals(sodium)
    #expect(same)
    sodium.withUnsafeMutableBytes { $0[0] ^= 1 }
    let differs = !secret.constantTimeEquals(sodium)
    #expect(differs)
  }

  @Test("every protection it claims shows in smaps: lo, dd, dc; no access; guard pages")
  func protectionAgreesWithSmaps() throws {
    let buffer = try SecureBuffer(capacity: 5000, storage: .secretMemory)
    let pages = BufferPages(buffer)
    #expect(pages.isPageAligned, "\(pages)")
    let protection = buffer.protection
    #expect(protection.isComplete, "\(protection)")
    let map = try MemoryMap()
    #expect(pages.unsupportedClaims(of: protection, in: map) == [])
    let data = try #require(map.mapping(containing: pages.dataStart))
    #expect(data.flags.isSuperset(of: ["lo", "dd", "dc"]), "\(data)")
    #expect(data.permissions == "---s", "a shared mapping, no-access: \(data)")
    #expect(pages.guardPagesPresent(in: map))
    // Control: a sodium buffer is private, wiped on fork rather than left out.
    let sodium = try SecureBuffer(capacity: 5000)
    let sodiumData = try #require(
      try MemoryMap().mapping(containing: BufferPages(sodium).dataStart))
    #expect(sodiumData.flags.contains("wf") && !sodiumData.flags.contains("dc"), "\(sodiumData)")
    #expect(sodium.protection.storage == .sodium)
  }

  @Test("isHiddenFromKernel holds exactly where /proc/self/mem cannot read the page")
  func hiddenFromKernelByEffect() throws {
    let secret = try SecureBuffer(capacity: 64, storage: .secretMemory)
    let sodium = try SecureBuffer(capacity: 64)
    #expect(secret.protection.isHiddenFromKernel)
    #expect(procMemReadError(at: BufferPages(secret).dataStart) == EIO)
    // Control: the kernel reads a no-access sodium page for /proc/PID/mem.
    #expect(!sodium.protection.isHiddenFromKernel)
    #expect(procMemReadError(at: BufferPages(sodium).dataStart) == nil)
  }

  @Test("the default stays sodium; .strongestAvailable takes secret memory on this kernel")
  func defaultsAndStrongest() throws {
    let plain = try SecureBuffer(capacity: 8)
    #expect(plain.protection.storage == .sodium)
    #expect(plain.protection.secretMemoryFallback == nil)
    let strongest = try SecureBuffer(capacity: 8, storage: .strongestAvailable)
    #expect(strongest.protection.storage == .secretMemory)
    #expect(strongest.protection.secretMemoryFallback == nil)
    #expect(strongest.protection.description.hasPrefix("secret memory: locked"))
  }

  @Test("at most three mappings per buffer, where sodium_malloc makes four")
  func mappingCount() async {
    // In an exit-test child: tests running in parallel would map meanwhile.
    await #expect(processExitsWith: .success) {
      _ = try! SecureBuffer(capacity: 1, storage: .secretMemory)
      var held: [HeldBuffer] = []
      let before = try! MemoryMap().mappings.count
      for _ in 0..<8 {
        held.append(HeldBuffer(try! SecureBuffer(capacity: 1, storage: .secretMemory)))
      }
      let after = try! MemoryMap().mappings.count
      // Three each at most: guard, data, guard. Regions mapped next to each
      // other share a guard mapping (two PROT_NONE anonymous neighbours merge),
      // so never fewer than two each; the reading may leave one more behind.
      #expect((16...26).contains(after - before), "\(after - before) mappings for 8 buffers")
      withExtendedLifetime(held) {}
    }
  }

  static func bytes(of buffer: borrowing SecureBuffer) -> [UInt8] {
    buffer.withUnsafeBytes { Array($0) }
  }
}
