import Glibc
import SecureMemory
import TestSupport
import Testing

/// Each flag of `protection` checked against what the kernel shows in
/// `/proc/self/smaps`, beside ordinary memory that must lack the same flags.
@Suite("SecureBuffer protections show in /proc/self/smaps")
struct ProtectionEffectTests {
  @Test("the data pages are locked (lo), left out of core dumps (dd) and wiped on fork (wf)")
  func dataPagesCarryFlags() throws {
    let buffer = try SecureBuffer(capacity: 5000)
    let pages = BufferPages(buffer)
    #expect(pages.isPageAligned, "\(pages)")
    let map = try MemoryMap()
    for address in [pages.dataStart, pages.lastDataByte] {
      let data = try #require(map.mapping(containing: address))
      #expect(data.flags.isSuperset(of: ["lo", "dd", "wf"]), "\(data)")
      #expect(data.lockedKiB > 0, "\(data)")
    }
    let protection = buffer.protection
    #expect(pages.unsupportedClaims(of: protection, in: map) == [])
  }

  @Test("outside a window the data pages and both guard pages are no-access")
  func noAccessOutsideWindows() throws {
    let buffer = try SecureBuffer(capacity: 100)
    let pages = BufferPages(buffer)
    let map = try MemoryMap()
    let data = try #require(map.mapping(containing: pages.dataStart))
    #expect(data.permissions == "---p", "\(data)")
    #expect(pages.guardPagesPresent(in: map), "\(map.mapping(containing: pages.guardBefore)!)")
  }

  @Test("inside a read window the data pages are read-only; the guards stay no-access")
  func readOnlyInsideWindow() throws {
    let buffer = try SecureBuffer(capacity: 100)
    let pages = BufferPages(buffer)
    let inside = try buffer.withUnsafeBytes { _ in try MemoryMap() }
    let data = try #require(inside.mapping(containing: pages.dataStart))
    #expect(data.permissions == "r--p", "\(data)")
    #expect(data.flags.isSuperset(of: ["lo", "dd", "wf"]), "\(data)")
    #expect(pages.guardPagesPresent(in: inside))
  }

  @Test("control: an ordinary heap array and an anonymous mapping lack lo, dd and wf")
  func ordinaryMemoryLacksFlags() throws {
    let array = [UInt8](repeating: 7, count: 4096)
    let arrayAddress = array.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    let size = 4 * pageSize
    let region = try #require(
      mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
    try #require(region != MAP_FAILED)
    defer { munmap(region, size) }
    region.storeBytes(of: 7, as: UInt8.self)

    let map = try MemoryMap()
    for address in [arrayAddress, UInt(bitPattern: region)] {
      let mapping = try #require(map.mapping(containing: address))
      // The parser read the flags: an ordinary mapping is readable and writable.
      #expect(mapping.flags.isSuperset(of: ["rd", "wr"]), "\(mapping)")
      #expect(mapping.flags.isDisjoint(with: ["lo", "dd", "wf"]), "\(mapping)")
    }
    withExtendedLifetime(array) {}
  }
}
