import Glibc
import SecureMemory
import TestSupport
import Testing

/// A derivation at libsodium's smallest Argon2id limits (one pass over 8 KiB):
/// cheap, for tests about the API rather than the cost.
func cheapDerivation(salt: [UInt8] = Array(0..<16)) throws -> KeyDerivation {
  try KeyDerivation(salt: salt, operationsLimit: 1, memoryLimit: 8 * 1024)
}

@Suite("KeyDerivation derives keys from passwords with Argon2id")
struct KeyDerivationTests {
  @Test("the strengths expose libsodium's limits")
  func strengthLimits() {
    #expect(PasswordHash.Strength.interactive.operationsLimit == 2)
    #expect(PasswordHash.Strength.interactive.memoryLimit == 64 << 20)
    #expect(PasswordHash.Strength.moderate.operationsLimit == 3)
    #expect(PasswordHash.Strength.moderate.memoryLimit == 256 << 20)
    #expect(PasswordHash.Strength.sensitive.operationsLimit == 4)
    #expect(PasswordHash.Strength.sensitive.memoryLimit == 1 << 30)
  }

  @Test("the same password, salt and limits give the same key; another of any gives another")
  func deterministic() throws {
    let password = try securePassword("correct horse battery staple")
    let derivation = try cheapDerivation()
    let first = try derivation.deriveKey(from: password)
    let second = try derivation.deriveKey(from: password)
    #expect(first.count == 32)
    #expect(bytes(of: first) == bytes(of: second))

    let others = [
      bytes(of: try derivation.deriveKey(from: securePassword("correct horse battery stapler"))),
      bytes(of: try cheapDerivation(salt: Array(1...16)).deriveKey(from: password)),
      bytes(
        of: try KeyDerivation(salt: Array(0..<16), operationsLimit: 2, memoryLimit: 8192)
          .deriveKey(from: password)),
      bytes(
        of: try KeyDerivation(salt: Array(0..<16), operationsLimit: 1, memoryLimit: 16384)
          .deriveKey(from: password)),
    ]
    for other in others {
      #expect(other != bytes(of: first))
    }
  }

  @Test("the key length is the one asked for, and a longer key does not start with a shorter one")
  func keyLength() throws {
    let password = try securePassword("pw")
    let derivation = try cheapDerivation()
    let short = try derivation.deriveKey(from: password, byteCount: 16)
    let long = try derivation.deriveKey(from: password, byteCount: 64)
    #expect(short.count == 16)
    #expect(long.count == 64)
    // Argon2id's output length is an input of its hash: not a prefix.
    #expect(Array(bytes(of: long)[0..<16]) != bytes(of: short))
  }

  @Test("interactive limits: a random salt each time, keys that differ, the limits recorded")
  func randomSalt() throws {
    let first = try KeyDerivation.random(strength: .interactive)
    let second = try KeyDerivation.random()
    #expect(first.salt.count == 16)
    #expect(first.salt != second.salt)
    #expect(first.operationsLimit == 2 && first.memoryLimit == 64 << 20)
    let password = try securePassword("same password")
    #expect(
      bytes(of: try first.deriveKey(from: password))
        != bytes(of: try second.deriveKey(from: password)))
  }

  /// One wrong parameter and what the error must name.
  struct WrongParameter: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let salt: [UInt8]
    let operations: UInt64
    let memory: Int
    let code: SecureMemoryError.Code
    let named: [String]
  }

  static let wrongParameters = [
    WrongParameter(
      testDescription: "a salt of 15 bytes", salt: Array(0..<15), operations: 1, memory: 8192,
      code: .invalidSalt, named: ["15 bytes", "exactly 16"]),
    WrongParameter(
      testDescription: "an empty salt", salt: [], operations: 1, memory: 8192,
      code: .invalidSalt, named: ["0 bytes", "exactly 16"]),
    WrongParameter(
      testDescription: "0 passes", salt: Array(0..<16), operations: 0, memory: 8192,
      code: .limitOutOfRange, named: ["operations limit of 0", "below", "1 to 4294967295"]),
    WrongParameter(
      testDescription: "2^32 passes", salt: Array(0..<16), operations: 1 << 32, memory: 8192,
      code: .limitOutOfRange, named: ["operations limit of 4294967296", "above"]),
    WrongParameter(
      testDescription: "4 KiB of memory", salt: Array(0..<16), operations: 1, memory: 4096,
      code: .limitOutOfRange, named: ["memory limit of 4 KiB", "below", "8 KiB to"]),
  ]

  @Test(
    "a wrong salt or limit is an error that names it and libsodium's bounds",
    arguments: wrongParameters)
  func wrongParameter(_ wrong: WrongParameter) {
    let error = #expect(throws: SecureMemoryError.self) {
      try KeyDerivation(
        salt: wrong.salt, operationsLimit: wrong.operations, memoryLimit: wrong.memory)
    }
    #expect(error?.code == wrong.code)
    for words in wrong.named {
      #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    }
  }

  @Test("a key shorter than 16 bytes is an error that names the length and the bounds")
  func shortKey() throws {
    let password = try securePassword("pw")
    let error = #expect(throws: SecureMemoryError.self) {
      _ = try cheapDerivation().deriveKey(from: password, byteCount: 8)
    }
    #expect(error?.code == .limitOutOfRange)
    #expect(
      error?.description.contains("key length of 8 bytes") == true, "\(String(describing: error))")
    #expect(error?.description.contains("16 bytes to") == true, "\(String(describing: error))")
  }

  @Test("a memory limit the process cannot have is hashingFailed with ENOMEM, naming the limit")
  func memoryUnavailable() async {
    await #expect(processExitsWith: .success) {
      let password = try! securePassword("out of memory")
      let derivation = try! KeyDerivation.random(strength: .interactive)
      // Leave 16 MiB of address space: Argon2id at interactive limits needs 64.
      let addressSpace = limitAddressSpace(toUsedPlus: 16 << 20)
      #expect(addressSpace.limited)
      let error = #expect(throws: SecureMemoryError.self) {
        _ = try derivation.deriveKey(from: password)
      }
      #expect(error?.code == .hashingFailed)
      #expect(error?.errno == ENOMEM, "\(String(describing: error))")
      #expect(error?.description.contains("64 MiB") == true, "\(String(describing: error))")

      // Control: with the address space back, the same derivation succeeds.
      #expect(addressSpace.restore())
      #expect(try! derivation.deriveKey(from: password).count == 32)
    }
  }

  @Test("the derived key lives in a buffer with the password's protections")
  func keyIsProtected() throws {
    let key = try cheapDerivation().deriveKey(from: securePassword("pw"))
    let (protection, policy) = (key.protection, key.lockPolicy)
    #expect(protection.isLocked)
    #expect(protection.hasGuardPages)
    #expect(protection.isInaccessibleOutsideWindows)
    #expect(policy == .required)
  }
}
