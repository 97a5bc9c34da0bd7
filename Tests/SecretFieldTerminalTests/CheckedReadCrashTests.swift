import CSystemShims
import Glibc
import Testing

/// A pipe holding eight bytes, its write end closed.
private func pipeWithEightBytes() -> Int32 {
  var ends: [Int32] = [-1, -1]
  precondition(pipe(&ends) == 0)
  _ = Array("12345678".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
  close(ends[1])
  return ends[0]
}

@Suite("The C shim's read is checked against the buffer's size, as _FORTIFY_SOURCE checks")
struct CheckedReadCrashTests {
  @Test("a count past the buffer's capacity aborts before a byte is written")
  func countPastCapacity() async {
    await #expect(processExitsWith: .signal(SIGABRT)) {
      let descriptor = pipeWithEightBytes()
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
      _ = secretfield_read_available(descriptor, buffer, 4, 8)
    }
  }

  @Test("the control: a count within the capacity reads, and exits cleanly")
  func countWithinCapacity() async {
    await #expect(processExitsWith: .success) {
      let descriptor = pipeWithEightBytes()
      var bytes = [UInt8](repeating: 0, count: 4)
      let got = secretfield_read_available(descriptor, &bytes, 4, 4)
      #expect(got == 4)
      #expect(bytes == Array("1234".utf8))
    }
  }
}
