import Glibc
@_spi(Testing) import SecureMemory
import TestSupport
import Testing

/// Secret memory that cannot be had: a kernel without `memfd_secret` (the
/// `ENOSYS` seam) and the locked-memory limit. Each runs in an exit-test child:
/// the seam, the limit and the user change are for that process alone.
@Suite("Secret memory when the kernel or the lock limit refuses it")
struct SecretMemoryFallbackTests {
  @Test(
    "without memfd_secret: .secretMemory throws naming the kernel and the remedy; .strongestAvailable falls back and says why"
  )
  func kernelWithoutSecretMemory() async {
    await #expect(processExitsWith: .success) {
      SecureStorage.simulateSecretMemoryFailure(errno: ENOSYS)
      for policy in [LockPolicy.required, .bestEffort] {
        #expect {
          _ = try SecureBuffer(capacity: 8, locking: policy, storage: .secretMemory)
        } throws: { error in
          let error = error as! SecureMemoryError
          return error.code == .secretMemoryUnavailable && error.errno == ENOSYS
            && error.description.contains("memfd_secret")
            && error.description.contains("5.14")
            && error.description.contains(".strongestAvailable")
        }
      }
      let fallback = try! SecureBuffer(capacity: 8, storage: .strongestAvailable)
      let protection = fallback.protection
      #expect(protection.storage == .sodium)
      #expect(protection.isComplete, "\(protection)")
      #expect(!protection.isHiddenFromKernel)
      #expect(protection.secretMemoryFallback?.code == .secretMemoryUnavailable)
      #expect(protection.description.contains("no secret memory"), "\(protection)")
      // By effect: the fallback is sodium memory, readable through /proc/self/mem.
      #expect(procMemReadError(at: BufferPages(fallback).dataStart) == nil)
      #expect(BufferPages(fallback).unsupportedClaims(of: protection, in: try! MemoryMap()) == [])

      // Control: with the seam off again, the same call gets secret memory.
      SecureStorage.simulateSecretMemoryFailure(errno: 0)
      let secret = try! SecureBuffer(capacity: 8, storage: .strongestAvailable)
      #expect(secret.protection.storage == .secretMemory)
    }
  }

  @Test(
    "under a 64 KiB RLIMIT_MEMLOCK, as an unprivileged user: secret memory runs out with lockFailed naming the limit; .strongestAvailable falls back until sodium memory runs out too"
  )
  func lockedMemoryLimit() async {
    await #expect(processExitsWith: .success) {
      // Root's CAP_IPC_LOCK ignores the limit for secret memory too.
      let (held, failure) = fillLockedMemoryAsNobody(storage: .secretMemory)
      let error = try! #require(failure)
      #expect(error.code == .lockFailed, "\(error)")
      #expect(error.errno == EAGAIN || error.errno == ENOMEM, "\(error)")
      #expect(error.description.contains("RLIMIT_MEMLOCK") && error.description.contains("64 KiB"))
      #expect(error.description.contains("secret memory"), "\(error)")

      // Each buffer held agrees with smaps, and is hidden although this process,
      // no longer dumpable, may not open its own /proc/self/mem.
      let map = try! MemoryMap()
      for buffer in held {
        let protection = buffer.buffer.protection
        #expect(protection.storage == .secretMemory && protection.isHiddenFromKernel)
        #expect(BufferPages(buffer.buffer).unsupportedClaims(of: protection, in: map) == [])
      }

      // .strongestAvailable under .bestEffort falls back to an unlocked sodium
      // buffer and says both things.
      let loose = try! SecureBuffer(capacity: 1, locking: .bestEffort, storage: .strongestAvailable)
      let protection = loose.protection
      #expect(protection.storage == .sodium)
      #expect(protection.secretMemoryFallback?.code == .lockFailed)
      #expect(!protection.isLocked)
      #expect(BufferPages(loose).unsupportedClaims(of: protection, in: try! MemoryMap()) == [])
      // Under .required there is nothing to fall back to: sodium cannot lock either.
      #expect(throws: SecureMemoryError.self) {
        _ = try SecureBuffer(capacity: 1, storage: .strongestAvailable)
      }
    }
  }
}
