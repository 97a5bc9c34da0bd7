import SecureMemory
import TestSupport
import Testing

/// Writes `marker`'s masked form into `buffer` and unmasks it there, so its
/// plain bytes exist only in the buffer's slot.
func plant(_ marker: Marker, in buffer: inout SecureBuffer) {
  marker.masked.withUnsafeBytes { try! buffer.append($0) }
  buffer.withUnsafeMutableBytes { marker.unmask(in: $0) }
}

/// Residue in a sodium-backed arena, whose pages a scan of `/proc/self/mem`
/// can read (secret memory it could not read at all, so it would prove
/// nothing). Neighbouring slots of one page hold a marker each; every scan
/// runs in an exit-test child, where no parallel test shares the memory.
@Suite("SecureArena Residue: a freed slot is wiped at once, its neighbours keep theirs")
struct SecureArenaResidueTests {
  @Test("control: a marker planted in an ordinary array is found, and one in a slot is found once")
  func controlFindsCopies() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      let arena = try! SecureArena(name: "residue control", storage: .sodium)
      var buffer = try! SecureBuffer(capacity: 24, in: arena)
      var scans = ResidueScans()
      scans.expect(0, of: marker, "before planting")
      plant(marker, in: &buffer)
      scans.expect(1, of: marker, "planted in a slot")
      scans.expectControlFinds(marker, copies: 2)
      withExtendedLifetime(buffer) {}
      scans.check()
    }
  }

  @Test(
    "a freed slot's marker is gone at once (0 copies) while its neighbours on the page keep theirs (1 each)"
  )
  func freedSlotIsWiped() async {
    await #expect(processExitsWith: .success) {
      let markers = (0..<3).map { _ in Marker(count: 32) }
      let arena = try! SecureArena(name: "residue", storage: .sodium)
      var left = try! SecureBuffer(capacity: 32, in: arena)
      var middle = try! SecureBuffer(capacity: 32, in: arena)
      var right = try! SecureBuffer(capacity: 32, in: arena)
      let middleAddress = address(of: middle)
      plant(markers[0], in: &left)
      plant(markers[1], in: &middle)
      plant(markers[2], in: &right)
      var scans = ResidueScans()
      scans.expect([1, 1, 1], of: markers, "left, middle, right alive")
      _ = consume middle
      scans.expect([1, 0, 1], of: markers, "after the middle slot's free")

      // The freed slot is handed out again, zeroed.
      var reused = try! SecureBuffer(capacity: 32, in: arena)
      let reusedAddress = address(of: reused)
      var reusedIsZero = false
      try! reused.append(count: 32) { spare in reusedIsZero = spare.allSatisfy { $0 == 0 } }
      withExtendedLifetime(reused) {}
      withExtendedLifetime(left) {}
      withExtendedLifetime(right) {}

      scans.check()
      #expect(reusedAddress == middleAddress)
      #expect(reusedIsZero)
    }
  }

  @Test("growth to a larger class wipes the old slot: one copy after each move, none after release")
  func growthWipesOldSlots() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let arena = try! SecureArena(name: "residue growth", storage: .sodium)
      var buffer = try! SecureBuffer(capacity: 32, in: arena)
      plant(marker, in: &buffer)
      var scans = ResidueScans()
      for size in [64, 200, 1000, 2048, 5000] {
        try! buffer.reserveCapacity(size)
        scans.expect(1, of: marker, "after growing to \(size) bytes")
      }
      let inArenaAtEnd = buffer.isInArena
      _ = consume buffer
      scans.expect(0, of: marker, "after release")
      scans.expectControlFinds(marker)
      #expect(!inArenaAtEnd)
      scans.check()
    }
  }
}
