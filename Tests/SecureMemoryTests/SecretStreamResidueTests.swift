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
      var scans = ResidueScans()
      scans.expect(1, of: plainMarker, "plaintext after sealing")
      _ = consume original
      scans.expect(0, of: plainMarker, "plaintext after the sealed buffer's release")

      var opener = try! SecretStream.Opener(key: key, header: header)
      var opened = try! SecureBuffer(capacity: 64)
      #expect(try! opener.open(chunk, into: &opened))
      _ = consume opener
      scans.expect(1, of: plainMarker, "opened plaintext while held")
      scans.expect(1, of: keyMarker, "key while held")
      _ = consume opened
      scans.expect(0, of: plainMarker, "opened plaintext after release")
      _ = consume key
      scans.expect(0, of: keyMarker, "key after release")
      scans.expectControlFinds(plainMarker, keyMarker)
      scans.check()
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
      var scans = ResidueScans()
      scans.expect(0, of: plainMarker, "plaintext after sealing and its buffers' release")

      var opener = try! SecretStream.Opener(key: key, header: header)
      var opened = try! SecureBuffer(capacity: 16 * 65536)
      for chunk in chunks { _ = try! opener.open(chunk, into: &opened) }
      try! opener.finish()
      scans.expect(1, of: plainMarker, "opened plaintext while held")
      _ = consume opened
      _ = consume key
      scans.expect(0, of: plainMarker, "plaintext after release")
      scans.expect(0, of: keyMarker, "key after release")
      scans.expectControlFinds(plainMarker)
      scans.check()
    }
  }
}
