import SecureMemory
import TestSupport
import Testing

/// A password built from `marker` inside secure memory: the plain bytes exist
/// only there.
func markedSecret(_ marker: Marker) -> SecureBuffer {
  var buffer = try! SecureBuffer(capacity: marker.count)
  marker.masked.withUnsafeBytes { try! buffer.append($0) }
  buffer.withUnsafeMutableBytes { marker.unmask(in: $0) }
  return buffer
}

/// Argon2id writes the key straight into secure memory and reads the password
/// where it lies; these scans show that neither is left anywhere else (in
/// Argon2's blocks, the BLAKE2b state, a register spilled to the stack by the
/// first call through the PLT) while they are held, and nothing after release.
/// Each scan runs in an exit-test child; Scripts/test runs them in release too.
@Suite("KeyDerivation leaves one copy of the key and the password, and none after release")
struct KeyDerivationResidueTests {
  @Test("the derived key and the password have one copy while held and none after release")
  func noResidue() async {
    await #expect(processExitsWith: .success) {
      let passwordMarker = Marker(count: 32)
      let password = markedSecret(passwordMarker)
      let derivation = try! KeyDerivation.random(strength: .interactive)
      let key = try! derivation.deriveKey(from: password)
      let keyMarker = key.withUnsafeBytes { Marker(maskingBytesIn: $0) }

      let keyWhileHeld = try! ResidueScanner().scan(for: keyMarker)
      let passwordWhileHeld = try! ResidueScanner().scan(for: passwordMarker)
      _ = consume key
      let keyAfterRelease = try! ResidueScanner().scan(for: keyMarker)
      _ = consume password
      let passwordAfterRelease = try! ResidueScanner().scan(for: passwordMarker)

      // Control, in the same process after the same work: copies in ordinary
      // arrays are found.
      let planted = (keyMarker.plainBytesForControl(), passwordMarker.plainBytesForControl())
      let keyControl = try! ResidueScanner().scan(for: keyMarker)
      let passwordControl = try! ResidueScanner().scan(for: passwordMarker)
      withExtendedLifetime(planted) {}

      #expect(keyWhileHeld.copies == 1, "\(keyWhileHeld)")
      #expect(passwordWhileHeld.copies == 1, "\(passwordWhileHeld)")
      #expect(keyAfterRelease.copies == 0, "\(keyAfterRelease)")
      #expect(passwordAfterRelease.copies == 0, "\(passwordAfterRelease)")
      #expect(keyControl.copies >= 1, "\(keyControl)")
      #expect(passwordControl.copies >= 1, "\(passwordControl)")
    }
  }
}
