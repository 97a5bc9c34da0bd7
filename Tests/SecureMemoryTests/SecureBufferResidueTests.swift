import SecureMemory
import TestSupport
import Testing

/// The marker's plain bytes are made only inside the buffer, so every copy a scan
/// finds is one the buffer left. Each scan runs in an exit-test child, where no
/// parallel test shares the memory.
@Suite("SecureBuffer leaves no copy of its bytes behind")
struct SecureBufferResidueTests {
  @Test("control: a marker planted in an ordinary array is found")
  func controlFindsArray() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound(Marker())
    }
  }

  @Test("one copy while alive, through growth and edits; none after release")
  func noResidueAfterRelease() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      var buffer = try! SecureBuffer(capacity: 16)
      // Junk before the marker, so that removing it moves the marker down by more
      // than its length: a tail that was not wiped would leave a whole copy.
      let junk = [UInt8](repeating: 0x2E, count: 40)
      junk.withUnsafeBytes { try! buffer.append($0) }
      marker.masked.withUnsafeBytes { try! buffer.append($0) }
      buffer.withUnsafeMutableBytes {
        marker.unmask(in: UnsafeMutableRawBufferPointer(rebasing: $0[40...]))
      }
      let afterUnmask = try! ResidueScanner().scan(for: marker)

      // Grow several times: each move leaves the old region to be wiped.
      for size in [5000, 20_000, 100_000, 300_000] { try! buffer.reserveCapacity(size) }
      let afterGrowth = try! ResidueScanner().scan(for: marker)

      // Remove the junk: the marker, last in the buffer, moves down, and the tail
      // it leaves must be wiped.
      buffer.removeSubrange(0..<40)
      let afterRemove = try! ResidueScanner().scan(for: marker)

      // Insert at the start (the marker moves up), then edit around it.
      junk.withUnsafeBytes { try! buffer.replaceSubrange(0..<0, with: $0) }
      let filler = [UInt8](repeating: 0x2D, count: 10_000)
      filler.withUnsafeBytes { try! buffer.append($0) }
      junk.withUnsafeBytes { try! buffer.replaceSubrange(1000..<5000, with: $0) }
      let afterEdits = try! ResidueScanner().scan(for: marker)

      _ = consume buffer
      let afterRelease = try! ResidueScanner().scan(for: marker)

      #expect(afterUnmask.copies == 1, "\(afterUnmask)")
      #expect(afterGrowth.copies == 1, "\(afterGrowth)")
      #expect(afterRemove.copies == 1, "\(afterRemove)")
      #expect(afterEdits.copies == 1, "\(afterEdits)")
      #expect(afterRelease.copies == 0, "\(afterRelease)")
    }
  }

  @Test("removeAll wipes the bytes while the buffer lives on")
  func removeAllWipes() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      var buffer = marker.unmaskedInSecureBuffer()
      let alive = try! ResidueScanner().scan(for: marker)
      buffer.removeAll()
      let wiped = try! ResidueScanner().scan(for: marker)
      #expect(alive.copies == 1, "\(alive)")
      #expect(wiped.copies == 0, "\(wiped)")
      withExtendedLifetime(buffer) {}
    }
  }
}
