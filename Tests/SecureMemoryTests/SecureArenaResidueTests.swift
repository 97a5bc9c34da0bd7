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
      let before = try! ResidueScanner().scan(for: marker)
      plant(marker, in: &buffer)
      let inSlot = try! ResidueScanner().scan(for: marker)
      let planted = marker.plainBytesForControl()
      let withArray = try! ResidueScanner().scan(for: marker)
      withExtendedLifetime(planted) {}
      withExtendedLifetime(buffer) {}
      #expect(before.copies == 0, "\(before)")
      #expect(inSlot.copies == 1, "\(inSlot)")
      #expect(withArray.copies == 2, "\(withArray)")
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
      let alive = try! markers.map { try ResidueScanner().scan(for: $0) }

      _ = consume middle
      let afterFree = try! markers.map { try ResidueScanner().scan(for: $0) }

      // The freed slot is handed out again, zeroed.
      var reused = try! SecureBuffer(capacity: 32, in: arena)
      let reusedAddress = address(of: reused)
      var reusedIsZero = false
      try! reused.append(count: 32) { spare in reusedIsZero = spare.allSatisfy { $0 == 0 } }
      withExtendedLifetime(reused) {}
      withExtendedLifetime(left) {}
      withExtendedLifetime(right) {}

      #expect(alive.map(\.copies) == [1, 1, 1], "\(alive)")
      #expect(afterFree.map(\.copies) == [1, 0, 1], "\(afterFree)")
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
      var counts: [Int] = []
      for size in [64, 200, 1000, 2048, 5000] {
        try! buffer.reserveCapacity(size)
        counts.append(try! ResidueScanner().scan(for: marker).copies)
      }
      let inArenaAtEnd = buffer.isInArena
      _ = consume buffer
      let afterRelease = try! ResidueScanner().scan(for: marker)
      #expect(counts == [1, 1, 1, 1, 1], "\(counts)")
      #expect(!inArenaAtEnd)
      #expect(afterRelease.copies == 0, "\(afterRelease)")
    }
  }
}
