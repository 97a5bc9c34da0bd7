import Glibc
import SecureMemory
import Testing

/// How a child ended, from a `waitpid` status: its exit status, or nil when a
/// signal ended it.
func exitStatus(of child: pid_t) -> Int32? {
  var status: Int32 = 0
  while waitpid(child, &status, 0) < 0 && errno == EINTR {}
  return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
}

/// `MADV_WIPEONFORK` by effect: a forked child reads zeros, the parent keeps the
/// secret. Each test forks from an exit-test child, so the test runner never
/// forks itself.
@Suite("SecureBuffer in a forked child")
struct WipeOnForkTests {
  /// Exit statuses of the forked child, one per check.
  enum ChildStatus {
    static let clean: Int32 = 0
    static let bytesNotWiped: Int32 = 2
    static let controlLost: Int32 = 3
    static let canaryNotWiped: Int32 = 4
  }

  @Test(
    "a forked child reads zeros where the parent keeps the secret, and exits cleanly after dropping its copy"
  )
  func childSeesZeros() async {
    await #expect(processExitsWith: .success) {
      let secret: [UInt8] = (0..<48).map { 0xA0 | UInt8($0 % 16) }
      var buffer = try! SecureBuffer(capacity: 48)
      try! buffer.append(secret)
      // Control: an ordinary copy, which fork duplicates as it is.
      let ordinary = Array(secret)

      let child = fork()
      if child == 0 {
        // In the child: checks only, with no allocation, then _exit.
        let wiped = buffer.withUnsafeBytes { bytes in bytes.allSatisfy { $0 == 0 } }
        // The canary before the first byte is wiped too: this is why the child
        // must not call sodium_free, which would take it for an overrun.
        let canaryWiped = buffer.withUnsafeBytes { bytes in
          UnsafeRawBufferPointer(start: bytes.baseAddress! - 16, count: 16).allSatisfy { $0 == 0 }
        }
        let controlKept = ordinary == secret && ordinary.allSatisfy { $0 != 0 }
        _ = consume buffer
        _exit(
          !wiped
            ? ChildStatus.bytesNotWiped
            : !controlKept
              ? ChildStatus.controlLost
              : !canaryWiped ? ChildStatus.canaryNotWiped : ChildStatus.clean)
      }
      #expect(child > 0)
      #expect(exitStatus(of: child) == ChildStatus.clean)
      #expect(bytes(of: buffer) == secret, "the parent keeps the secret")
      let protection = buffer.protection
      #expect(protection.isWipedOnFork)
    }
  }

  @Test("a buffer a forked child grows is its own: it frees it without touching the parent's")
  func childGrowsInheritedBuffer() async {
    await #expect(processExitsWith: .success) {
      let secret: [UInt8] = Array(repeating: 0xC3, count: 32)
      var buffer = try! SecureBuffer(capacity: 32)
      try! buffer.append(secret)

      let child = fork()
      if child == 0 {
        // Growing moves the (zero) bytes to a region the child owns and drops the
        // inherited one without sodium_free.
        let more: [UInt8] = Array(repeating: 0x11, count: 8000)
        try! buffer.append(more)
        let grown = buffer.withUnsafeBytes { bytes in
          bytes[..<32].allSatisfy { $0 == 0 } && bytes[32...].allSatisfy { $0 == 0x11 }
        }
        _ = consume buffer
        _exit(grown ? ChildStatus.clean : ChildStatus.bytesNotWiped)
      }
      #expect(exitStatus(of: child) == ChildStatus.clean)
      #expect(bytes(of: buffer) == secret)
    }
  }
}
