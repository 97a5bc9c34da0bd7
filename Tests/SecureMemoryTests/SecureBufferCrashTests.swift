import Glibc
import SecureMemory
import Testing

/// Each protection is shown by the crash it causes, beside a control that does
/// the same thing inside the bounds and must exit cleanly; those a sodium and a
/// secret-memory buffer share run in both.
@Suite("SecureBuffer protections end the process on misuse")
struct SecureBufferCrashTests {
  @Test(
    "writing the last byte of capacity is allowed (control) and one byte past it hits the trailing guard page, in sodium or secret memory",
    arguments: [false, true], [false, true])
  func writeAtTheEnd(pastCapacity: Bool, inSecretMemory: Bool) async {
    await #expect(processExitsWith: pastCapacity ? .signal(SIGSEGV) : .success) {
      [pastCapacity, inSecretMemory] in
      var buffer = try! SecureBuffer(capacity: 64, storage: arenaStorage(inSecretMemory))
      let capacity = buffer.capacity
      try! buffer.append([UInt8(1)])
      let offset = pastCapacity ? capacity : capacity - 1
      buffer.withUnsafeMutableBytes { bytes in
        (bytes.baseAddress! + offset).storeBytes(of: 7, as: UInt8.self)
      }
    }
  }

  @Test("reading inside the window works (control)")
  func readInsideWindow() async {
    await #expect(processExitsWith: .success) {
      var buffer = try! SecureBuffer(capacity: 8)
      try! buffer.append([UInt8(42)])
      let value = buffer.withUnsafeBytes { $0.baseAddress!.load(as: UInt8.self) }
      if value != 42 { exit(1) }
    }
  }

  @Test(
    "reading through a pointer kept from a closed window, or writing through a read-only one, faults, in sodium or secret memory",
    arguments: WindowMisuse.allCases, [false, true])
  func windowMisuseFaults(_ misuse: WindowMisuse, inSecretMemory: Bool) async {
    await #expect(processExitsWith: .signal(SIGSEGV)) { [misuse, inSecretMemory] in
      var buffer = try! SecureBuffer(capacity: 8, storage: arenaStorage(inSecretMemory))
      try! buffer.append([UInt8(42)])
      misuse.commit(on: buffer)
    }
  }

  @Test(
    "releasing an intact buffer exits cleanly (control for the canary), in sodium or secret memory",
    arguments: [false, true])
  func releaseIntact(inSecretMemory: Bool) async {
    await #expect(processExitsWith: .success) { [inSecretMemory] in
      var buffer = try! SecureBuffer(capacity: 8, storage: arenaStorage(inSecretMemory))
      try! buffer.append([UInt8(42)])
      _ = consume buffer
    }
  }

  @Test("a corrupted canary makes sodium_free end the process")
  func corruptedCanary() async {
    await #expect(processExitsWith: .signal(SIGSEGV)) {
      var buffer = try! SecureBuffer(capacity: 8)
      try! buffer.append([UInt8(42)])
      // The canary is the 16 bytes right before the first byte; an underrun by
      // one byte changes it.
      // Flip every bit: the canary is random, so storing a constant would leave
      // it unchanged one run in 256.
      buffer.withUnsafeMutableBytes { canaryByte in
        let last = canaryByte.baseAddress! - 1
        last.storeBytes(of: ~last.load(as: UInt8.self), as: UInt8.self)
      }
      _ = consume buffer
    }
  }

  @Test("an edit range past the end traps with a message")
  func rangeOutOfBounds() async {
    await #expect(processExitsWith: .failure) {
      var buffer = try! SecureBuffer(capacity: 8)
      buffer.removeSubrange(0..<1)
    }
  }
}
