import SecureMemory
import TestSupport

/// Where a buffer's pages lie, as addresses to look up in `/proc/self/smaps`.
///
/// The layout is `sodium_malloc`'s, and secret memory keeps it: a guard page, the
/// data pages (a 16-byte canary, then the capacity, ending exactly at the next
/// page), a guard page.
struct BufferPages: CustomStringConvertible {
  /// The first byte of the data pages: the canary.
  let dataStart: UInt
  /// One past the last byte of capacity: the first byte of the trailing guard.
  let dataEnd: UInt

  /// Takes the addresses from inside a read window; the pointer does not escape,
  /// only its value.
  init(_ buffer: borrowing SecureBuffer) {
    let start = buffer.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    dataStart = start - 16
    dataEnd = start + UInt(buffer.capacity)
  }

  var guardBefore: UInt { dataStart - UInt(pageSize) }
  var guardAfter: UInt { dataEnd }
  var lastDataByte: UInt { dataEnd - 1 }

  var isPageAligned: Bool {
    dataStart % UInt(pageSize) == 0 && dataEnd % UInt(pageSize) == 0
  }

  var description: String {
    "data 0x\(String(dataStart, radix: 16))-0x\(String(dataEnd, radix: 16))"
  }

  /// Each protection `protection` claims that the map does not show: empty when
  /// the claims are true.
  func unsupportedClaims(of protection: Protection, in map: MemoryMap) -> [String] {
    let data = [map.mapping(containing: dataStart), map.mapping(containing: lastDataByte)]
    let guards = [map.mapping(containing: guardBefore), map.mapping(containing: guardAfter)]
    func all(_ mappings: [Mapping?], _ holds: (Mapping) -> Bool) -> Bool {
      mappings.allSatisfy { $0.map(holds) ?? false }
    }
    var unsupported: [String] = []
    if protection.hasGuardPages && !all(guards, \.isNoAccess) {
      unsupported.append("guard pages: \(guards)")
    }
    if protection.isInaccessibleOutsideWindows && !all(data, \.isNoAccess) {
      unsupported.append("no access: \(data)")
    }
    if protection.isLocked && !all(data, { $0.flags.contains("lo") }) {
      unsupported.append("locked: \(data)")
    }
    if protection.isExcludedFromCoreDumps && !all(data, { $0.flags.contains("dd") }) {
      unsupported.append("no core dump: \(data)")
    }
    // Sodium memory is wiped in a child (`wf`); secret memory is not copied (`dc`).
    let forkFlag = protection.storage == .secretMemory ? "dc" : "wf"
    if protection.isWipedOnFork && !all(data, { $0.flags.contains(forkFlag) }) {
      unsupported.append("kept from a forked child (\(forkFlag)): \(data)")
    }
    return unsupported
  }

  /// True when the map shows a no-access page on both sides of the data.
  func guardPagesPresent(in map: MemoryMap) -> Bool {
    [guardBefore, guardAfter].allSatisfy { map.mapping(containing: $0)?.isNoAccess ?? false }
  }
}

/// A buffer behind a reference, so a test can keep many alive in an array.
final class HeldBuffer {
  var buffer: SecureBuffer
  init(_ buffer: consuming SecureBuffer) { self.buffer = buffer }
}
