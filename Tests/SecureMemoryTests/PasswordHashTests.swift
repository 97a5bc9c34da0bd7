import Glibc
import SecureMemory
import TestSupport
import Testing

/// A password's bytes in a secure buffer; the array is the test's oracle.
func securePassword(_ bytes: [UInt8]) throws -> SecureBuffer {
  try makeBuffer(bytes)
}

func securePassword(_ text: String) throws -> SecureBuffer {
  try makeBuffer(Array(text.utf8))
}

/// Argon2id at interactive limits (about 120 ms a run), the strength every test
/// here uses unless it says otherwise.
@Suite("PasswordHash hashes and verifies with Argon2id")
struct PasswordHashTests {
  /// Made by libsodium's C API at tiny limits (m=8 KiB, t=1): cheap to verify.
  static let tinyHashOfSample =
    "$argon2id$v=19$m=8,t=1,p=1$MIoWXk0OLhRkluH+dt+GCg$CuV5QQTvDNK6wEyWd+4hHJe7l82t6/N/WsQHtsnF4wg"
  /// An Argon2i hash of `legacy password` at Argon2i's interactive limits.
  static let argon2iHashOfLegacy =
    "$argon2i$v=19$m=32768,t=4,p=1$eGqU7Sm+4e5lSCdZjWKyFA$eBLna71MPQyUVNxgk7r9vlawOhL0C7ObONhV0edSE2Y"

  @Test("a hash verifies the password it was made from, and no other")
  func verifiesOnlyItsPassword() throws {
    let password = try securePassword("correct horse battery staple")
    let hash = try PasswordHash(hashing: password)
    #expect(hash.string.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"), "\(hash)")
    #expect(try PasswordHash.verify(password, against: hash))
    #expect(
      try !PasswordHash.verify(securePassword("correct horse battery stapler"), against: hash))
    #expect(try !PasswordHash.verify(securePassword(""), against: hash))
  }

  @Test("each hash has its own salt: two hashes of one password differ")
  func saltsDiffer() throws {
    let password = try securePassword("same password")
    let first = try PasswordHash(hashing: password)
    let second = try PasswordHash(hashing: password)
    #expect(first != second)
    // The salt is the fourth field: $argon2id$v=19$m=…,t=…,p=…$salt$hash.
    #expect(first.string.split(separator: "$")[3] != second.string.split(separator: "$")[3])
  }

  struct MultiByteCase: CustomTestStringConvertible, Sendable {
    let name: String
    let typed: String
    /// The same characters in other bytes (another normalisation form), which
    /// must not verify: the hash is of bytes, not of characters.
    let sameCharactersOtherBytes: [UInt8]?
    var testDescription: String { name }
  }

  @Test(
    "a password with multi-byte characters verifies against the same bytes",
    arguments: [
      MultiByteCase(
        name: "pässwörd, precomposed (NFC)", typed: "p\u{E4}ssw\u{F6}rd",
        sameCharactersOtherBytes: Array("pa\u{308}sswo\u{308}rd".utf8)),
      MultiByteCase(
        name: "emoji and a ZWJ family", typed: "🔐 key 👩‍👩‍👧", sameCharactersOtherBytes: nil),
    ])
  func multiByte(_ testCase: MultiByteCase) throws {
    let typed = Array(testCase.typed.utf8)
    #expect(typed.count > testCase.typed.count, "the password holds multi-byte characters")
    let hash = try PasswordHash(hashing: securePassword(typed))
    #expect(try PasswordHash.verify(securePassword(typed), against: hash))
    if let other = testCase.sameCharactersOtherBytes {
      #expect(other != typed)
      #expect(try !PasswordHash.verify(securePassword(other), against: hash))
    }
  }

  @Test("needsRehash is false at the hash's own strength, true at any other")
  func needsRehashByStrength() throws {
    let hash = try PasswordHash(hashing: securePassword("rehash me"))
    #expect(!PasswordHash.needsRehash(hash, strength: .interactive))
    #expect(PasswordHash.needsRehash(hash, strength: .moderate))
    #expect(PasswordHash.needsRehash(hash, strength: .sensitive))
  }

  @Test("a hash made at weaker limits elsewhere verifies, and needs a rehash")
  func weakerHashFromElsewhere() throws {
    let hash = try PasswordHash(Self.tinyHashOfSample)
    #expect(try PasswordHash.verify(securePassword("sample"), against: hash))
    #expect(try !PasswordHash.verify(securePassword("Sample"), against: hash))
    for strength in PasswordHash.Strength.allCases {
      #expect(PasswordHash.needsRehash(hash, strength: strength), "\(strength)")
    }
  }

  @Test("a legacy Argon2i hash verifies, and needs a rehash to Argon2id even at matching limits")
  func argon2iNeedsRehash() throws {
    let hash = try PasswordHash(Self.argon2iHashOfLegacy)
    #expect(try PasswordHash.verify(securePassword("legacy password"), against: hash))
    for strength in PasswordHash.Strength.allCases {
      #expect(PasswordHash.needsRehash(hash, strength: strength), "\(strength)")
    }
  }

  @Test("moderate limits: 256 MiB and 3 passes in the string; interactive then needs a rehash")
  func moderate() throws {
    let hash = try PasswordHash(hashing: securePassword("moderate"), strength: .moderate)
    #expect(hash.string.hasPrefix("$argon2id$v=19$m=262144,t=3,p=1$"), "\(hash)")
    #expect(!PasswordHash.needsRehash(hash, strength: .moderate))
    #expect(PasswordHash.needsRehash(hash, strength: .interactive))
  }

  @Test("a hash string round-trips through init(_:)")
  func roundTrip() throws {
    let hash = try PasswordHash(hashing: securePassword("round trip"))
    let stored = try PasswordHash(hash.string)
    #expect(stored == hash)
    #expect(stored.description == hash.string)
  }

  struct MalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let string: String
    var testDescription: String { name }
  }

  @Test(
    "a malformed hash throws malformedHash",
    arguments: [
      MalformedCase(name: "empty", string: ""),
      MalformedCase(name: "plain text", string: "hunter2"),
      MalformedCase(name: "prefix only", string: "$argon2id$"),
      MalformedCase(name: "no salt or hash", string: "$argon2id$v=19$m=65536,t=2,p=1$"),
      MalformedCase(
        name: "hash cut short",
        string: String(PasswordHashTests.tinyHashOfSample.dropLast(20))),
      MalformedCase(
        name: "unknown version",
        string: PasswordHashTests.tinyHashOfSample.replacing("v=19", with: "v=99")),
      MalformedCase(
        name: "bcrypt", string: "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"),
      MalformedCase(name: "embedded NUL", string: PasswordHashTests.tinyHashOfSample + "\0x"),
      MalformedCase(
        name: "longer than 127 bytes",
        string: PasswordHashTests.tinyHashOfSample + String(repeating: "A", count: 60)),
    ])
  func malformed(_ testCase: MalformedCase) {
    let error = #expect(throws: SecureMemoryError.self) { try PasswordHash(testCase.string) }
    #expect(error?.code == .malformedHash)
    #expect(
      error?.description.contains("$argon2id$") == true, "the message shows the expected form")
  }

  @Test("control: the well-formed strings the malformed cases are cut from are accepted")
  func wellFormedAccepted() throws {
    _ = try PasswordHash(Self.tinyHashOfSample)
    _ = try PasswordHash(Self.argon2iHashOfLegacy)
  }

  @Test(
    "hashingFailed when the memory the limits need cannot be had; the same call succeeds with it")
  func outOfMemory() async {
    await #expect(processExitsWith: .success) {
      let password = try! securePassword("out of memory")
      // Leave 16 MiB of address space: Argon2id at interactive limits needs 64.
      let addressSpace = limitAddressSpace(toUsedPlus: 16 << 20)
      #expect(addressSpace.limited)
      let error = #expect(throws: SecureMemoryError.self) {
        try PasswordHash(hashing: password)
      }
      #expect(error?.code == .hashingFailed)
      #expect(error?.errno == ENOMEM, "\(String(describing: error))")
      #expect(error?.description.contains("64 MiB") == true, "\(String(describing: error))")

      #expect(addressSpace.restore())
      let hash = try! PasswordHash(hashing: password)
      #expect(try! PasswordHash.verify(password, against: hash))
    }
  }
}
