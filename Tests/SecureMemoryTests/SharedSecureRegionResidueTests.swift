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
      var scans = ResidueScans()
      scans.expect(1, of: marker, "input's marker while held")
      _ = consume input
      scans.expect(0, of: marker, "input's marker once dropped")
      scans.expect(1, of: other, "the neighbouring field's marker")
      scans.expectControlFinds(marker, copies: 1)
      withExtendedLifetime(field) {}
      scans.check()
    }
  }
}
