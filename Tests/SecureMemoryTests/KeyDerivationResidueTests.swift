import SecureMemory
import TestSupport
import Testing

/// A password built from `marker` inside secure memory: the plain bytes exist
/// only there.
func markedSecret(_ marker: Marker) -> SecureBuffer {
  let buffer = marker.unmaskedInSecureBuffer(capacity: marker.count)
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

      var scans = ResidueScans()
      scans.expect(1, of: keyMarker, "key while held")
      scans.expect(1, of: passwordMarker, "password while held")
      _ = consume key
      scans.expect(0, of: keyMarker, "key after release")
      _ = consume password
      scans.expect(0, of: passwordMarker, "password after release")
      scans.expectControlFinds(keyMarker, passwordMarker)
      scans.check()
    }
  }

  /// Right after Argon2id returns, its last registers can still hold the key.
  /// The calls here are the first of their libsodium functions in this child
  /// (a compare, a rehash check, the strength getters) and wipe no stack after
  /// them: were they bound lazily, glibc's resolver would save those registers
  /// on the stack now. `Sodium.ensureInitialized` binds them all beforehand.
  @Test(
    "the first calls of other libsodium functions right after deriving leave no copy of the key")
  func firstCallsAfterDerivation() async {
    await #expect(processExitsWith: .success) {
      let password = markedSecret(Marker(count: 32))
      let derivation = try! KeyDerivation(
        salt: Array(0..<16), operationsLimit: 1, memoryLimit: 8192)
      let key = try! derivation.deriveKey(from: password)
      let same = key.constantTimeEquals(key)
      let hash = try! PasswordHash(
        "$argon2id$v=19$m=8,t=1,p=1$MIoWXk0OLhRkluH+dt+GCg$CuV5QQTvDNK6wEyWd+4hHJe7l82t6/N/WsQHtsnF4wg"
      )
      let stale = PasswordHash.needsRehash(hash, strength: .moderate)
      let limits = PasswordHash.Strength.sensitive.memoryLimit
      let keyMarker = key.withUnsafeBytes { Marker(maskingBytesIn: $0) }
      var scans = ResidueScans()
      scans.expect(1, of: keyMarker, "key while held")
      _ = consume key
      scans.expect(0, of: keyMarker, "key after release")
      scans.expectControlFinds(keyMarker)
      #expect(same && stale && limits == 1 << 30)
      scans.check()
    }
  }
}
