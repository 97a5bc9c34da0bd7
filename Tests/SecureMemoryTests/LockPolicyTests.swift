import Glibc
import SecureMemory
import TestSupport
import Testing

/// Lowers `RLIMIT_MEMLOCK` (soft and hard) for this process.
func limitLockedMemory(to bytes: Int) -> Bool {
  var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
  return setrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0
}

/// Lowers the soft `RLIMIT_AS` to what the process uses now plus `extra`
/// bytes, and returns a function that puts the limit back; both report
/// whether `setrlimit` took it.
func limitAddressSpace(toUsedPlus extra: Int) -> (limited: Bool, restore: () -> Bool) {
  let used = try! statusValue("VmSize")! * 1024
  var limit = rlimit()
  getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
  let original = limit
  limit.rlim_cur = rlim_t(used + extra)
  let limited = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0
  return (
    limited,
    {
      var back = original
      return setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &back) == 0
    }
  )
}

/// Lowers `RLIMIT_MEMLOCK` to 64 KiB, drops root's `CAP_IPC_LOCK` (which
/// ignores the limit) by becoming nobody, and makes one-byte buffers (of
/// `storage`, or the default) until one fails, at most 64. Expects the limit
/// to be what stopped them: 1 to 16 held, and `VmLck` within a page under
/// 64 KiB. For an exit-test child.
func fillLockedMemoryAsNobody(storage: SecureStorage? = nil) -> (
  held: [HeldBuffer], failure: SecureMemoryError?
) {
  #expect(limitLockedMemory(to: 64 * 1024))
  if getuid() == 0 { #expect(dropToNobody()) }
  var held: [HeldBuffer] = []
  var failure: SecureMemoryError?
  while held.count < 64 {
    do throws(SecureMemoryError) {
      if let storage {
        held.append(HeldBuffer(try SecureBuffer(capacity: 1, storage: storage)))
      } else {
        held.append(HeldBuffer(try SecureBuffer(capacity: 1)))
      }
    } catch {
      failure = error
      break
    }
  }
  let lockedKiB = try! statusValue("VmLck") ?? -1
  #expect((1...16).contains(held.count), "\(held.count) buffers before the limit")
  // The limit, not something else, stopped the next one: the next page would not fit.
  #expect(lockedKiB + pageSize / 1024 > 64 && lockedKiB <= 64, "VmLck \(lockedKiB) kB")
  return (held, failure)
}

/// `.required` and `.bestEffort` past the locked-memory limit. Each runs in an
/// exit-test child: the limit and the user change are for that process alone.
@Suite("LockPolicy past the locked-memory limit")
struct LockPolicyTests {
  @Test(
    "under a 64 KiB RLIMIT_MEMLOCK, as an unprivileged user: .required throws lockFailed naming the limit; .bestEffort hands out an unlocked buffer"
  )
  func lockedMemoryLimit() async {
    await #expect(processExitsWith: .success) {
      let (held, failure) = fillLockedMemoryAsNobody()
      // Control: below the limit, every buffer is locked.
      #expect(held.allSatisfy { $0.buffer.protection == .complete })

      let error = try! #require(failure)
      #expect(error.code == .lockFailed)
      #expect(error.errno == ENOMEM)
      #expect(error.description.contains("RLIMIT_MEMLOCK"), "\(error)")
      #expect(error.description.contains("64 KiB"), "\(error)")

      // .bestEffort past the limit: a buffer that says it is not locked, and is not.
      var loose = try! SecureBuffer(capacity: 1, locking: .bestEffort)
      let protection = loose.protection
      #expect(!protection.isLocked)
      var expected = Protection.complete
      expected.isLocked = false
      #expect(protection == expected, "only the lock is missing: \(protection)")
      try! loose.append([42])
      #expect(bytes(of: loose) == [42])

      // By effect: the loose buffer's pages lack `lo`; an earlier buffer keeps it.
      let map = try! MemoryMap()
      let loosePages = BufferPages(loose)
      let lockedPages = BufferPages(held[0].buffer)
      let looseData = map.mapping(containing: loosePages.dataStart)
      let lockedData = map.mapping(containing: lockedPages.dataStart)
      #expect(looseData.map { !$0.flags.contains("lo") && $0.flags.contains("dd") } == true)
      #expect(lockedData.map { $0.flags.contains("lo") } == true)
      #expect(loosePages.unsupportedClaims(of: protection, in: map) == [])
      #expect(held.allSatisfy { $0.buffer.protection.isLocked })
    }
  }

  @Test(
    "control: as root, CAP_IPC_LOCK lets buffers lock past the limit, so the test above must drop it",
    .enabled(if: getuid() == 0, "needs root"))
  func rootIgnoresLimit() async {
    await #expect(processExitsWith: .success) {
      #expect(limitLockedMemory(to: 64 * 1024))
      var held: [HeldBuffer] = []
      for _ in 0..<32 { held.append(HeldBuffer(try! SecureBuffer(capacity: 1))) }
      let lockedKiB = try! statusValue("VmLck") ?? -1
      #expect(lockedKiB > 64, "VmLck \(lockedKiB) kB")
      #expect(held.allSatisfy { $0.buffer.protection.isLocked })
    }
  }
}
