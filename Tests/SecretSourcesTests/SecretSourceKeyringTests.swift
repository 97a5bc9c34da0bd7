import Glibc
import SecureMemory
import TestSupport
import Testing
import SecretSources

/// A front end that cannot ask: obtaining from it fails with `promptFailed`,
/// so a test sees whether the user was asked.
let unreachablePrompt = SecretSource.asking(StubAsker(answer: nil))

@Suite(
  "SecretSource.keyring: the passphrase cached in the kernel keyring",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct SecretSourceKeyringTests {
  @Test("firstAvailable([.keyring, .terminal]) takes what is cached, and asks only when nothing is")
  func asksOnlyWhenNothingCached() throws {
    let name = KeyringOracle.uniqueName("source")
    defer { KeyringOracle.remove(name) }
    let sources = [SecretSource.keyring(name: name), unreachablePrompt]

    #expect(!SecretSource.keyring(name: name).isSet)
    #expect(SecretSource.firstAvailable(sources) == unreachablePrompt)
    #expect(Obtained(SecretSource.firstAvailable(sources)) == .failed(.promptFailed), "asked")

    try #require(KeyringOracle.add(name, payload: Array("cached\0older".utf8)) != nil)
    #expect(SecretSource.keyring(name: name).isSet)
    #expect(SecretSource.firstAvailable(sources) == .keyring(name: name))
    #expect(Obtained(SecretSource.firstAvailable(sources)) == .secret("cached"), "not asked")
  }

  @Test("the cached passphrase is read into the storage asked for: secret memory as the tools ask")
  func readsIntoStorage() throws {
    let name = KeyringOracle.uniqueName("source-storage")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("cached".utf8)) != nil)
    let secret = try SecretSource.keyring(name: name).obtain(
      storage: .strongestAvailable, reportingWarnings: { _ in })
    #expect(text(secret) == "cached")
    #expect(secret.protection.storage == .secretMemory)
    // Control: without a storage, sealed (the default).
    let plain = try SecretSource.keyring(name: name).obtain()
    #expect(plain.protection.storage == .sealed)
  }

  @Test("keyring:NAME names the source; keyring: alone is refused")
  func specification() throws {
    #expect(try SecretSource(specification: "keyring:backup") == .keyring(name: "backup"))
    #expect(throws: SecretSourceError.self) { try SecretSource(specification: "keyring:") }
  }

  @Test("nothing cached, an empty passphrase, one over 8 KiB: notSet, empty, tooLong")
  func refusals() throws {
    let name = KeyringOracle.uniqueName("source-bad")
    defer { KeyringOracle.remove(name) }
    #expect(Obtained(.keyring(name: name)) == .failed(.notSet))
    try #require(KeyringOracle.add(name, payload: [0]) != nil)
    #expect(Obtained(.keyring(name: name)) == .failed(.empty))
    let long = [UInt8](repeating: 0x6C, count: SecretSource.maximumByteCount + 1)
    try #require(KeyringOracle.add(name, payload: long) != nil)
    #expect(Obtained(.keyring(name: name)) == .failed(.tooLong))
  }

  @Test(
    "obtain(cachingUncheckedUnder:) caches what another source gave, once; from the key itself, nothing"
  )
  func obtainCaching() throws {
    let name = KeyringOracle.uniqueName("source-cache")
    defer { KeyringOracle.remove(name) }
    let piped = pipeHolding(Array("from a pipe\n".utf8))
    defer { close(piped) }
    let first = try SecretSource.descriptor(piped).obtain(
      cachingUncheckedUnder: name, timeout: .seconds(60))
    #expect(text(first) == "from a pipe")
    #expect(KeyringOracle.payload(name) == Array("from a pipe".utf8))

    let again = try SecretSource.firstAvailable([.keyring(name: name), unreachablePrompt])
      .obtain(cachingUncheckedUnder: name, timeout: .seconds(60))
    #expect(text(again) == "from a pipe")
    #expect(KeyringOracle.payload(name) == Array("from a pipe".utf8), "not stored twice")
  }

  /// Accepts "right" only, as a vault that opens with one passphrase.
  struct WrongPassphrase: Error {}
  static func acceptsRight(_ candidate: borrowing SecureBuffer) throws {
    guard text(candidate) == "right" else { throw WrongPassphrase() }
  }

  @Test("verified: a wrong passphrase is refused and never cached; a right one is cached")
  func verifiedCachesOnlyWhatPasses() throws {
    let name = KeyringOracle.uniqueName("verified")
    defer { KeyringOracle.remove(name) }
    let wrong = pipeHolding(Array("wrong\n".utf8))
    defer { close(wrong) }
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.descriptor(wrong).obtain(
        cachingUnder: name, timeout: .seconds(60), verifiedBy: Self.acceptsRight)
    }
    #expect(error?.code == .rejected)
    #expect(error?.cause is WrongPassphrase)
    #expect(KeyringOracle.payload(name) == nil, "nothing cached")

    let right = pipeHolding(Array("right\n".utf8))
    defer { close(right) }
    let secret = try SecretSource.descriptor(right).obtain(
      cachingUnder: name, timeout: .seconds(60), verifiedBy: Self.acceptsRight)
    #expect(text(secret) == "right")
    #expect(KeyringOracle.payload(name) == Array("right".utf8))
  }

  @Test("verified: a cached passphrase that passes is taken without asking; the control asks")
  func verifiedTakesCached() throws {
    let name = KeyringOracle.uniqueName("verified-hit")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("wrong\0right".utf8)) != nil)
    let secret = try unreachablePrompt.obtain(
      cachingUnder: name, timeout: .seconds(60), verifiedBy: Self.acceptsRight)
    #expect(text(secret) == "right", "the second cached entry, not asked")
    // Control: a check nothing cached passes, so the unreachable prompt is asked.
    let error = #expect(throws: SecretSourceError.self) {
      _ = try unreachablePrompt.obtain(cachingUnder: name, timeout: .seconds(60)) { _ in
        throw WrongPassphrase()
      }
    }
    #expect(error?.code == .promptFailed)
  }

  @Test("verified: a cached passphrase that fails is removed, and the source asked once")
  func verifiedRemovesStale() throws {
    let name = KeyringOracle.uniqueName("verified-stale")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("stale".utf8)) != nil)
    let right = pipeHolding(Array("right\n".utf8))
    defer { close(right) }
    var warnings: [SecretSourceWarning] = []
    let secret = try SecretSource.descriptor(right).obtain(
      cachingUnder: name, timeout: .seconds(60), verifiedBy: Self.acceptsRight
    ) { warnings.append($0) }
    #expect(text(secret) == "right")
    #expect(warnings.map(\.code) == [.cacheRemoved])
    #expect(KeyringOracle.payload(name) == Array("right".utf8), "the stale one is gone")
  }

  @Test(
    "a keyring a seccomp filter blocks: .keyring is not set, and caching is a warning, not a failure"
  )
  func unreachable() async {
    await #expect(processExitsWith: .success) {
      precondition(KeyringBlock.install(failingWith: EPERM), "seccomp filter refused")
      let name = KeyringOracle.uniqueName("source-blocked")
      #expect(!SecretSource.keyring(name: name).isSet)
      #expect(
        SecretSource.firstAvailable([.keyring(name: name), unreachablePrompt])
          == unreachablePrompt)
      let piped = pipeHolding(Array("still given\n".utf8))
      var warnings: [SecretSourceWarning] = []
      let secret = try! SecretSource.descriptor(piped).obtain(cachingUncheckedUnder: name) {
        warnings.append($0)
      }
      #expect(text(secret) == "still given")
      #expect(warnings.map(\.code) == [.notCached])
      #expect(warnings.first?.description.contains("cannot be reached") == true)
    }
  }
}

/// `.keyring` reads through ``KernelKeyring``, straight into secure memory.
@Suite(
  "Residue: SecretSource.keyring leaves no copy",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct SecretSourceKeyringResidueTests {
  @Test("the keyring: one copy while held, none after")
  func keyring() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      let name = KeyringOracle.uniqueName("source-residue")
      defer { KeyringOracle.remove(name) }
      do {
        let stored = marker.unmaskedInSecureBuffer(capacity: marker.count)
        try! KernelKeyring().store(stored, name: name, timeout: .seconds(30))
        _ = consume stored
      }
      checkResidue(of: .keyring(name: name), marker)
    }
  }
}
