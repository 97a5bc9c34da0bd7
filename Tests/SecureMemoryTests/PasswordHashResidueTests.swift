import SecureMemory
import TestSupport
import Testing

/// Argon2id reads the password where it lies; these scans show that nothing in
/// libsodium (the BLAKE2b state that absorbs it, a register spilled to the
/// stack) keeps a copy after hashing and verifying. Each scan runs in an
/// exit-test child.
@Suite("PasswordHash leaves no copy of the password behind")
struct PasswordHashResidueTests {
  @Test(
    "hashing and verifying, a match or a wrong password, leave the password only in its buffer, and nowhere after release",
    arguments: [true, false])
  func noResidue(matching: Bool) async {
    await #expect(processExitsWith: .success) { [matching] in
      let marker = Marker(count: 32)
      let password = marker.unmaskedInSecureBuffer()
      // A match verifies against the password's own hash; a wrong password
      // against another's.
      let hash =
        matching
        ? try! PasswordHash(hashing: password)
        : try! PasswordHash(
          "$argon2id$v=19$m=8,t=1,p=1$MIoWXk0OLhRkluH+dt+GCg$CuV5QQTvDNK6wEyWd+4hHJe7l82t6/N/WsQHtsnF4wg"
        )
      let matches = try! PasswordHash.verify(password, against: hash)
      var scans = ResidueScans()
      scans.expect(1, of: marker, "password after verifying, while held")
      _ = consume password
      scans.expect(0, of: marker, "password after release")
      scans.expectControlFinds(marker)
      #expect(matches == matching)
      scans.check()
    }
  }
}
