import Glibc
import SecureMemory
import Testing

/// The guard pages, canary and no-access of a secret-memory buffer, each shown by
/// the crash it causes. The faults and controls it shares with a sodium buffer
/// (the last byte and one past it, closed and read-only windows, an intact
/// release) run for both in `SecureBufferCrashTests`.
@Suite("Secret-memory buffer protections end the process on misuse")
struct SecretMemoryCrashTests {
  @Test("reading the page before the data pages hits the leading guard page")
  func underflowFaults() async {
    await #expect(processExitsWith: .signal(SIGSEGV)) {
      var buffer = try! SecureBuffer(capacity: 64, storage: .secretMemory)
      try! buffer.append([UInt8(1)])
      let value = buffer.withUnsafeBytes { bytes in
        (bytes.baseAddress! - 16 - 1).load(as: UInt8.self)
      }
      print(value)
    }
  }

  @Test("an underrun into the canary ends the process when the buffer is released")
  func corruptedCanary() async {
    await #expect(processExitsWith: .failure) {
      var buffer = try! SecureBuffer(capacity: 8, storage: .secretMemory)
      try! buffer.append([UInt8(42)])
      buffer.withUnsafeMutableBytes { bytes in
        (bytes.baseAddress! - 1).storeBytes(
          of: ~(bytes.baseAddress! - 1).load(as: UInt8.self), as: UInt8.self)
      }
      _ = consume buffer
      // Reached only when the release did not check the canary.
      exit(0)
    }
  }

  @Test(
    "a forked child that touches an inherited secret-memory buffer dies by SIGSEGV; the parent keeps the secret"
  )
  func forkedChildFaults() async {
    await #expect(processExitsWith: .success) {
      let secret: [UInt8] = (0..<48).map { 0xA0 | UInt8($0 % 16) }
      var buffer = try! SecureBuffer(capacity: 48, storage: .secretMemory)
      try! buffer.append(secret)
      var sodium = try! SecureBuffer(capacity: 48)
      try! sodium.append(secret)
      func forkAndRead(_ body: () -> Void) -> Int32 {
        let child = fork()
        if child == 0 {
          body()
          _exit(0)
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return status
      }
      // Control: a child reading the sodium buffer (zeros there) exits cleanly.
      let control = forkAndRead { _ = sodium.withUnsafeBytes { $0.first } }
      let touched = forkAndRead { _ = buffer.withUnsafeBytes { $0.first } }
      #expect(control & 0x7F == 0 && (control >> 8) & 0xFF == 0, "status \(control)")
      #expect(touched & 0x7F == SIGSEGV, "status \(touched)")
      #expect(buffer.withUnsafeBytes { Array($0) } == secret, "the parent keeps the secret")
    }
  }
}
