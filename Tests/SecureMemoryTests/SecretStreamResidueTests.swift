import SecureMemory
import TestSupport
import Testing

/// Sealing reads the plaintext where it lies and opening writes it straight into
/// secure memory; these scans show that no copy of the plaintext or the key is
/// left in libsodium's state, on the stack or in ordinary memory. Each scan runs
/// in an exit-test child; Scripts/test runs them in release too.
@Suite("SecretStream leaves one copy of the plaintext and the key, and none after release")
struct SecretStreamResidueTests {
  @Test("sealed and opened plaintext has one copy while held and none after release; the key too")
  func noResidue() async {
    await #expect(processExitsWith: .success) {
      let keyMarker = Marker(count: 32)
      let plainMarker = Marker(count: 48)
      let key = markedSecret(keyMarker)
      let original = markedSecret(plainMarker)

      var sealer = try! SecretStream.Sealer(key: key)
      let chunk = sealer.seal(original, isFinal: true)
      let header = sealer.header
      _ = consume sealer
      let afterSealing = try! ResidueScanner().scan(for: plainMarker)
      _ = consume original
      let afterSealedRelease = try! ResidueScanner().scan(for: plainMarker)

      var opener = try! SecretStream.Opener(key: key, header: header)
      var opened = try! SecureBuffer(capacity: 64)
      #expect(try! opener.open(chunk, into: &opened))
      _ = consume opener
      let openedWhileHeld = try! ResidueScanner().scan(for: plainMarker)
      let keyWhileHeld = try! ResidueScanner().scan(for: keyMarker)
      _ = consume opened
      let openedAfterRelease = try! ResidueScanner().scan(for: plainMarker)
      _ = consume key
      let keyAfterRelease = try! ResidueScanner().scan(for: keyMarker)

      // Control, in the same process after the same work: copies in ordinary
      // arrays are found.
      let planted = (plainMarker.plainBytesForControl(), keyMarker.plainBytesForControl())
      let plainControl = try! ResidueScanner().scan(for: plainMarker)
      let keyControl = try! ResidueScanner().scan(for: keyMarker)
      withExtendedLifetime(planted) {}

      #expect(afterSealing.copies == 1, "\(afterSealing)")
      #expect(afterSealedRelease.copies == 0, "\(afterSealedRelease)")
      #expect(openedWhileHeld.copies == 1, "\(openedWhileHeld)")
      #expect(keyWhileHeld.copies == 1, "\(keyWhileHeld)")
      #expect(openedAfterRelease.copies == 0, "\(openedAfterRelease)")
      #expect(keyAfterRelease.copies == 0, "\(keyAfterRelease)")
      #expect(plainControl.copies >= 1, "\(plainControl)")
      #expect(keyControl.copies >= 1, "\(keyControl)")
    }
  }

  @Test("a key derived from a password, a 1 MiB stream sealed and opened: no copy after release")
  func derivedKeyStream() async {
    await #expect(processExitsWith: .success) {
      let plainMarker = Marker(count: 40)
      let password = markedSecret(Marker(count: 24))
      let derivation = try! KeyDerivation.random(strength: .interactive)
      let key = try! derivation.deriveKey(from: password)
      _ = consume password
      let keyMarker = key.withUnsafeBytes { Marker(maskingBytesIn: $0) }

      // 16 chunks of 64 KiB; the marker in the middle of the eighth.
      var sealer = try! SecretStream.Sealer(key: key)
      var chunks: [[UInt8]] = []
      for index in 0..<16 {
        var plaintext = try! SecureBuffer(capacity: 65536)
        try! plaintext.append(count: 65536) { (bytes) throws(Never) in
          bytes.initializeMemory(as: UInt8.self, repeating: UInt8(index))
        }
        if index == 7 {
          plaintext.withUnsafeMutableBytes { bytes in
            let middle = UnsafeMutableRawBufferPointer(rebasing: bytes[30000..<30040])
            plainMarker.writeMasked(into: middle)
            plainMarker.unmask(in: middle)
          }
        }
        chunks.append(sealer.seal(plaintext, isFinal: index == 15))
      }
      let header = sealer.header
      _ = consume sealer
      let afterSealing = try! ResidueScanner().scan(for: plainMarker)

      var opener = try! SecretStream.Opener(key: key, header: header)
      var opened = try! SecureBuffer(capacity: 16 * 65536)
      for chunk in chunks { _ = try! opener.open(chunk, into: &opened) }
      try! opener.finish()
      let openedWhileHeld = try! ResidueScanner().scan(for: plainMarker)
      _ = consume opened
      _ = consume key
      let plainAfterRelease = try! ResidueScanner().scan(for: plainMarker)
      let keyAfterRelease = try! ResidueScanner().scan(for: keyMarker)

      let planted = plainMarker.plainBytesForControl()
      let control = try! ResidueScanner().scan(for: plainMarker)
      withExtendedLifetime(planted) {}

      #expect(afterSealing.copies == 0, "\(afterSealing)")
      #expect(openedWhileHeld.copies == 1, "\(openedWhileHeld)")
      #expect(plainAfterRelease.copies == 0, "\(plainAfterRelease)")
      #expect(keyAfterRelease.copies == 0, "\(keyAfterRelease)")
      #expect(control.copies >= 1, "\(control)")
    }
  }
}
