import Glibc
import SecureMemory
import TestSupport
import Testing

/// What a reader of `/proc/PID/mem` (root, or any process with `CAP_SYS_PTRACE`)
/// finds of a secret held in secret memory: nothing, while a sodium buffer in
/// the same process gives its secret away. Each scan runs in an exit-test child.
@Suite("Secret memory Residue: /proc/PID/mem cannot read a live secret")
struct SecretMemoryResidueTests {
  @Test(
    "a marker in secret memory is found 0 times while alive; one in a sodium buffer, once (control)"
  )
  func hiddenWhileAlive() async {
    await #expect(processExitsWith: .success) {
      let hidden = Marker(count: 32)
      let visible = Marker(count: 32)
      var secret = try! SecureBuffer(capacity: 64, storage: .secretMemory)
      var sodium = try! SecureBuffer(capacity: 64)
      hidden.masked.withUnsafeBytes { try! secret.append($0) }
      secret.withUnsafeMutableBytes { hidden.unmask(in: $0) }
      visible.masked.withUnsafeBytes { try! sodium.append($0) }
      sodium.withUnsafeMutableBytes { visible.unmask(in: $0) }

      let closed = try! ResidueScanner().scan(for: hidden)
      let control = try! ResidueScanner().scan(for: visible)
      // Inside a read window the pages are readable by the process, still not
      // by the kernel on a reader's behalf.
      let open = secret.withUnsafeBytes { bytes in
        (try! ResidueScanner().scan(for: hidden), hidden.isEqual(to: bytes))
      }
      #expect(closed.copies == 0, "\(closed)")
      #expect(!closed.refused.isEmpty, "the secret-memory pages refuse the read: \(closed)")
      #expect(open.0.copies == 0, "\(open.0)")
      #expect(open.1, "the process itself reads its secret")
      #expect(control.copies == 1, "\(control)")
      #expect(secret.protection.isHiddenFromKernel && !sodium.protection.isHiddenFromKernel)
      withExtendedLifetime(secret) {}
      withExtendedLifetime(sodium) {}
    }
  }

  @Test("through growth and edits the secret never shows; after release, neither does the control")
  func growthLeavesNothing() async {
    await #expect(processExitsWith: .success) {
      let hidden = Marker(count: 32)
      var secret = try! SecureBuffer(capacity: 16, storage: .secretMemory)
      let junk = [UInt8](repeating: 0x2E, count: 40)
      junk.withUnsafeBytes { try! secret.append($0) }
      hidden.masked.withUnsafeBytes { try! secret.append($0) }
      secret.withUnsafeMutableBytes {
        hidden.unmask(in: UnsafeMutableRawBufferPointer(rebasing: $0[40...]))
      }
      for size in [5000, 20_000, 100_000] { try! secret.reserveCapacity(size) }
      secret.removeSubrange(0..<40)
      let alive = try! ResidueScanner().scan(for: hidden)
      let kept = secret.withUnsafeBytes { hidden.isEqual(to: $0) }
      #expect(secret.protection.storage == .secretMemory)
      _ = consume secret
      let released = try! ResidueScanner().scan(for: hidden)
      #expect(kept, "the bytes survived growth")
      #expect(alive.copies == 0, "\(alive)")
      #expect(released.copies == 0, "\(released)")
    }
  }
}
