import Glibc
import SecureMemory
import TestSupport
import Testing

/// `PublicOutput` writes bytes that are not secret as `SecureBuffer.write(to:)`
/// writes a secret (every byte, `EPIPE` instead of `SIGPIPE`), with no
/// protection change. The control that a bare write into a closed pipe does
/// end the process is `SecureBufferTransferTests.brokenPipeControl`.
@Suite("PublicOutput: every byte, EPIPE not SIGPIPE, no protection change")
struct PublicOutputTests {
  @Test("every byte arrives, and no protection changes")
  func writesEverything() async {
    await #expect(processExitsWith: .success) {
      // The pipe holds 1 MiB: the bytes fit, and arrive after the write.
      let pipe = try! TestSupport.Pipe()
      let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
      let before = ProtectionChangeCount.current
      try! bytes.withUnsafeBytes { try PublicOutput.write($0, to: pipe.writeEnd) }
      #expect(ProtectionChangeCount.current == before)
      pipe.closeWriteEnd()
      #expect(pipe.receiveAll() == bytes)
    }
  }

  @Test("into a closed pipe: EPIPE, no SIGPIPE raised or left pending, no window")
  func brokenPipe() async {
    await #expect(processExitsWith: .success) {
      let writeEnd = writeEndWithNoReader()
      let before = ProtectionChangeCount.current
      let error = #expect(throws: SecureMemoryError.self) {
        try Array("OK\n".utf8).withUnsafeBytes { try PublicOutput.write($0, to: writeEnd) }
      }
      #expect(error?.errno == EPIPE)
      #expect(error?.code == .writeFailed)
      #expect(ProtectionChangeCount.current == before)
      var pending = sigset_t()
      sigpending(&pending)
      #expect(sigismember(&pending, SIGPIPE) == 0)
    }
  }
}
