import Glibc
import SecureMemory
import TestSupport
import Testing

/// The bytes secret number `index` of a test holds: its own, so a slot that
/// held another's (or a neighbour's overrun) shows.
func pattern(_ index: Int, count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: index &* 131 &+ $0 &* 7 &+ (index >> 8)) }
}

/// Fills `buffer` with `pattern(index, count:)`.
func fill(_ buffer: inout SecureBuffer, index: Int, count: Int) {
  let bytes = pattern(index, count: count)
  try! bytes.withUnsafeBytes { try buffer.append($0) }
}

/// True when `buffer` holds exactly `pattern(index, count:)`.
func holdsPattern(_ buffer: borrowing SecureBuffer, index: Int, count: Int) -> Bool {
  let expected = pattern(index, count: count)
  return buffer.withUnsafeBytes { $0.elementsEqual(expected) }
}

/// Under the default limits of this machine kind, as an unprivileged user
/// (root's `CAP_IPC_LOCK` would ignore `RLIMIT_MEMLOCK`). Each runs in an
/// exit-test child: the limit and the user change are for that process alone.
@Suite("SecureArena under the default limits")
struct SecureArenaLimitTests {
  static let secretCount = 100_000

  @Test(
    "100,000 live 32-byte secrets under an 8 MiB RLIMIT_MEMLOCK as nobody, each its own and no-access outside its window; buffers of their own stop near 2,000 (control)",
    arguments: [false, true])
  func hundredThousandSecrets(inSecretMemory: Bool) async {
    await #expect(processExitsWith: .success) { [inSecretMemory] in
      #expect(limitLockedMemory(to: 8 << 20))
      if getuid() == 0 { #expect(dropToNobody()) }
      let count = SecureArenaLimitTests.secretCount
      let storage = arenaStorage(inSecretMemory)
      let arena = try! SecureArena(name: "100k", storage: storage)
      let mappingsBefore = try! MemoryMap().mappings.count
      let lockedBefore = try! statusValue("VmLck")!

      let buffers = UnsafeMutablePointer<SecureBuffer>.allocate(capacity: count)
      for index in 0..<count {
        var buffer = try! SecureBuffer(capacity: 32, in: arena)
        fill(&buffer, index: index, count: 32)
        (buffers + index).initialize(to: buffer)
      }
      // Secret memory counts in VmLck, and against the limit, as sodium's
      // mlock does: 64 KiB a slab either way.
      let lockedKiB = try! statusValue("VmLck")! - lockedBefore
      #expect(lockedKiB == arena.slabCount * 64, "\(lockedKiB) KiB for \(arena.slabCount) slabs")
      let map = try! MemoryMap()
      let mappings = map.mappings.count - mappingsBefore
      #expect(lockedKiB * 1024 / count <= 64, "\(lockedKiB) KiB locked for \(count) secrets")
      // One mapping per page of each slab (16), its two guards and libsodium's
      // size page: 0.014 a secret; and the heap's for the array of buffers.
      #expect(mappings <= arena.slabCount * 19 + 4, "\(mappings) mappings for \(count) secrets")
      #expect(arena.slabCount == (count + 1364) / 1365)

      // Outside its window every secret's page is no-access; inside, it holds
      // its own bytes.
      var pages = Set<UInt>()
      var allOwn = true
      for index in 0..<count {
        pages.insert(page(of: address(of: buffers[index])))
        allOwn = allOwn && holdsPattern(buffers[index], index: index, count: 32)
      }
      #expect(allOwn)
      let slotStorage = buffers[0].protection.storage
      #expect(slotStorage == storage, "no slab fell back")
      let open = pages.filter { map.mapping(containing: $0)?.isNoAccess != true }
      #expect(open.isEmpty, "\(open.count) of \(pages.count) pages readable outside windows")

      // Control: the limit is in force. Buffers of their own, a locked page
      // each, in the same storage, run out after the ~700 pages the arena left.
      var own: [HeldBuffer] = []
      var failure: SecureMemoryError?
      while own.count < 3000 {
        do throws(SecureMemoryError) {
          own.append(HeldBuffer(try SecureBuffer(capacity: 32, storage: storage)))
        } catch {
          failure = error
          break
        }
      }
      #expect(failure?.code == .lockFailed, "\(own.count) buffers of their own")
      // Exactly the pages left under the limit: the arena's locked memory is
      // all there is.
      let pagesLeft = (8192 - lockedKiB) / (pageSize / 1024)
      #expect((pagesLeft - 4...pagesLeft).contains(own.count), "\(own.count) of \(pagesLeft)")
      own.removeAll()

      buffers.deinitialize(count: count)
      buffers.deallocate()
      #expect(arena.slabCount == 1)
      #expect(try! statusValue("VmLck")! - lockedBefore == 64)
    }
  }

  @Test(
    "at the lock limit a new slab throws lockFailed naming RLIMIT_MEMLOCK, and the arena goes on serving the slots it has",
    arguments: [false, true])
  func lockLimitReached(inSecretMemory: Bool) async {
    await #expect(processExitsWith: .success) { [inSecretMemory] in
      #expect(limitLockedMemory(to: 256 * 1024))
      if getuid() == 0 { #expect(dropToNobody()) }
      let arena = try! SecureArena(name: "limited", storage: arenaStorage(inSecretMemory))
      var held: [HeldBuffer] = []
      var failure: SecureMemoryError?
      while held.count < 10 * 1365 {
        do throws(SecureMemoryError) {
          var buffer = try SecureBuffer(capacity: 32, in: arena)
          fill(&buffer, index: held.count, count: 20)
          held.append(HeldBuffer(buffer))
        } catch {
          failure = error
          break
        }
      }
      let error = try! #require(failure)
      #expect(error.code == .lockFailed)
      #expect(error.description.contains("RLIMIT_MEMLOCK"), "\(error)")
      #expect(error.description.contains("256 KiB"), "\(error)")
      // The limit stopped it: whole slabs up to it, none past.
      let slabs = arena.slabCount
      #expect((2...4).contains(slabs), "\(slabs) slabs")
      #expect(held.count == slabs * 1365)

      // The slots it has still serve: every secret kept its bytes, and freed
      // slots are handed out again, as often as wanted.
      let kept = held.indices.allSatisfy { holdsPattern(held[$0].buffer, index: $0, count: 20) }
      #expect(kept)
      for round in 0..<3 {
        held.removeLast(100)
        for index in 0..<100 {
          var buffer = try! SecureBuffer(capacity: 32, in: arena)
          fill(&buffer, index: round * 1000 + index, count: 32)
          held.append(HeldBuffer(buffer))
        }
      }
      let reused = held.count - 100
      let reusedHoldsItsOwn = holdsPattern(held[reused].buffer, index: 2000, count: 32)
      #expect(reusedHoldsItsOwn)
      #expect(arena.slabCount == slabs)

      // Past them, the limit again, for this class and for any other.
      for capacity in [32, 100] {
        do throws(SecureMemoryError) {
          _ = try SecureBuffer(capacity: capacity, in: arena)
          Issue.record("a \(capacity)-byte secret past the limit was handed out")
        } catch {
          #expect(error.code == .lockFailed)
        }
      }
    }
  }
}
