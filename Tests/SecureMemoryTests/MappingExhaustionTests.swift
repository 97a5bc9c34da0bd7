import Glibc
import SecureMemory
import TestSupport
import Testing

/// Fills the process's table of memory mappings (`vm.max_map_count`) with
/// one-page mappings the kernel cannot merge, then gives back an exact number.
struct MappingFiller {
  let base: UnsafeMutableRawPointer
  let size: Int
  /// The no-access pages, each a mapping of its own between two read-only ones.
  let noAccessPages: [Int]

  /// Maps a read-only region, then makes every other page no-access until the
  /// kernel refuses to split it further: each success adds two mappings, so the
  /// table ends full.
  init?() {
    guard let text = try? readText("/proc/sys/vm/max_map_count"),
      let maximum = Int(text.filter(\.isNumber))
    else { return nil }
    let pages = maximum + 64
    size = pages * pageSize
    let region = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let region, region != MAP_FAILED else { return nil }
    base = region
    var protected: [Int] = []
    protected.reserveCapacity(pages / 2)
    var page = 1
    while page < pages - 1, mprotect(base + page * pageSize, pageSize, PROT_NONE) == 0 {
      protected.append(page)
      page += 2
    }
    guard page < pages - 1, Glibc.errno == ENOMEM else {
      munmap(base, size)
      return nil
    }
    noAccessPages = protected
  }

  /// Unmaps `count` of the no-access pages: each gives back exactly one mapping.
  func giveBack(_ count: Int) {
    for page in noAccessPages.prefix(count) { munmap(base + page * pageSize, pageSize) }
  }

  /// Unmaps the whole region, and with it every mapping it took.
  func removeAll() { munmap(base, size) }
}

/// What one allocation made while the process was out of mappings.
enum ExhaustedAllocation: CustomStringConvertible {
  case threw(SecureMemoryError.Code, String)
  /// A buffer: what it claimed, the claims `/proc/self/smaps` did not bear out,
  /// whether its guard pages were really there, and whether it could be used.
  case handedOut(Protection, unsupported: [String], guardsPresent: Bool, readBack: UInt8)

  var description: String {
    switch self {
    case .threw(let code, let message): "threw \(code): \(message)"
    case .handedOut(let protection, let unsupported, let guardsPresent, let readBack):
      "handed out [\(protection)], guards in map: \(guardsPresent), "
        + "unsupported claims: \(unsupported), read back \(readBack)"
    }
  }
}

/// Fills the mapping table, gives `spare` mappings back, allocates one buffer,
/// uses it while the table is still full, then empties the table and checks
/// every claim against `/proc/self/smaps`.
func allocateWhileOutOfMappings(spare: Int, policy: LockPolicy) -> ExhaustedAllocation? {
  guard let filler = MappingFiller() else { return nil }
  filler.giveBack(spare)
  var buffer: SecureBuffer
  do throws(SecureMemoryError) {
    buffer = try SecureBuffer(capacity: 1, locking: policy)
  } catch {
    filler.removeAll()
    return .threw(error.code, error.description)
  }
  // Still out of mappings: the windows must work all the same.
  let probe: [UInt8] = [0x5A]
  try! buffer.append(probe)
  let readBack = buffer.withUnsafeBytes { $0[0] }
  let protection = buffer.protection
  let pages = BufferPages(buffer)
  filler.removeAll()
  guard let map = try? MemoryMap() else { return nil }
  return .handedOut(
    protection, unsupported: pages.unsupportedClaims(of: protection, in: map),
    guardsPresent: pages.guardPagesPresent(in: map), readBack: readBack)
}

@Suite("SecureBuffer when the process is out of memory mappings")
struct MappingExhaustionTests {
  @Test(
    "with vm.max_map_count used up, .required throws and .bestEffort reports what is missing; neither claims a protection the map does not show"
  )
  func outOfMappings() async {
    await #expect(processExitsWith: .success) {
      var results: [(spare: Int, policy: LockPolicy, outcome: ExhaustedAllocation)] = []
      // From no mapping left to enough for a whole buffer (sodium_malloc takes 4).
      for spare in 0...6 {
        for policy in [LockPolicy.required, .bestEffort] {
          let outcome = try #require(allocateWhileOutOfMappings(spare: spare, policy: policy))
          results.append((spare, policy, outcome))
        }
      }
      let log = results.map { "\($0.spare) spare, \($0.policy): \($0.outcome)" }
        .joined(separator: "\n")

      for result in results {
        switch (result.policy, result.outcome) {
        case (.required, .threw(let code, let message)):
          // Not lockFailed: a message about RLIMIT_MEMLOCK would send the user
          // after the wrong limit.
          #expect([.guardPagesMissing, .allocationFailed].contains(code), "\(log)")
          #expect(message.contains("vm.max_map_count"), "\(log)")
        case (.bestEffort, .threw(let code, _)):
          #expect(code == .allocationFailed, "\(log)")
        case (
          let policy, .handedOut(let protection, let unsupported, let guardsPresent, let readBack)
        ):
          #expect(unsupported == [], "\(log)")
          #expect(readBack == 0x5A, "\(log)")
          if !guardsPresent { #expect(!protection.hasGuardPages && !protection.isComplete) }
          if policy == .required { #expect(protection == .complete, "\(log)") }
        }
      }

      // Controls: the exhaustion was real (a .required allocation was refused, and
      // a best-effort buffer came back without guard pages, as the map confirms),
      // and the checks accept a buffer that has everything it claims.
      #expect(
        results.contains {
          if case .threw = $0.outcome, $0.policy == .required { true } else { false }
        },
        "\(log)")
      #expect(
        results.contains {
          if case .handedOut(_, _, false, _) = $0.outcome, $0.policy == .bestEffort {
            true
          } else {
            false
          }
        }, "\(log)")
      #expect(
        results.contains {
          if case .handedOut(let protection, [], true, _) = $0.outcome {
            protection == .complete
          } else {
            false
          }
        }, "\(log)")
    }
  }
}
