import SecureMemory
import TestSupport
import Testing

/// Residue in a sodium-backed shared region, whose pages a scan of
/// `/proc/self/mem` can read; the scan runs in an exit-test child.
@Suite(
  "SharedSecureRegion Residue: a dropped buffer is wiped at once, its neighbour keeps its bytes")
struct SharedSecureRegionResidueTests {
  @Test("residue: a buffer's marker is found once while held and not at all once it is dropped")
  func residue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 24)
      let other = Marker(count: 24)
      let region = try! SharedSecureRegion(holding: [64, 32], storage: .sodium)
      var field = try! SecureBuffer(capacity: 64, sharing: region)
      var input = try! SecureBuffer(capacity: 32, sharing: region)
      plant(marker, in: &input)
      plant(other, in: &field)
      let held = try! ResidueScanner().scan(for: marker)
      _ = consume input
      let dropped = try! ResidueScanner().scan(for: marker)
      let neighbour = try! ResidueScanner().scan(for: other)
      let planted = marker.plainBytesForControl()
      let control = try! ResidueScanner().scan(for: marker)
      withExtendedLifetime(planted) {}
      withExtendedLifetime(field) {}
      #expect(held.copies == 1, "\(held)")
      #expect(dropped.copies == 0, "\(dropped)")
      #expect(neighbour.copies == 1, "\(neighbour)")
      #expect(control.copies == 1, "\(control)")
    }
  }
}
