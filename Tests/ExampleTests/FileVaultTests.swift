import Foundation
import Glibc
import PTYSupport
import SecureMemory
import TestSupport
import Testing

/// The example's file layout, as its header comment gives it.
let vaultHeaderSize = 64
let sealedChunkSize = 65536 + SecretStream.chunkOverhead

/// A scratch directory for one test, removed after.
final class ScratchDirectory {
  let path = NSTemporaryDirectory() + "file-vault-\(UUID().uuidString)"
  init() {
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
  func file(_ name: String) -> String { path + "/" + name }
}

/// Runs `file-vault MODE INPUT OUTPUT --stdin` with `passphrase` as its line of
/// standard input.
func fileVault(_ mode: String, _ input: String, _ output: String, passphrase: String) throws
  -> ProgramRun
{
  try runProgram(
    [builtExecutable("file-vault"), mode, input, output, "--stdin"],
    input: Array((passphrase + "\n").utf8))
}

/// 1 MiB and 100 bytes of varied bytes: 16 full chunks and a short final one.
let samplePlaintext = Data((0..<(1 << 20) + 100).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })

@Suite("The file-vault example encrypts and decrypts under a passphrase")
struct FileVaultTests {
  @Test("a 1 MiB file comes back byte for byte, in 64 KiB chunks after a 64-byte header")
  func roundTrip() throws {
    let scratch = ScratchDirectory()
    let (plain, vault, back) = (scratch.file("plain"), scratch.file("vault"), scratch.file("back"))
    _ = FileManager.default.createFile(atPath: plain, contents: samplePlaintext)
    let encrypted = try fileVault("encrypt", plain, vault, passphrase: "a passphrase, typed")
    #expect(encrypted.status == 0, "\(encrypted.error)")
    let sealed = try #require(FileManager.default.contents(atPath: vault))
    #expect(
      sealed.count == vaultHeaderSize + samplePlaintext.count + 17 * SecretStream.chunkOverhead)
    #expect(sealed.prefix(8) == Data("SFVAULT1".utf8))
    #expect(sealed.range(of: samplePlaintext.prefix(64)) == nil)

    let decrypted = try fileVault("decrypt", vault, back, passphrase: "a passphrase, typed")
    #expect(decrypted.status == 0, "\(decrypted.error)")
    #expect(FileManager.default.contents(atPath: back) == samplePlaintext)
  }

  @Test("an empty file and one of exactly 64 KiB round-trip too")
  func edgeSizes() throws {
    for size in [0, 65536] {
      let scratch = ScratchDirectory()
      let content = Data(repeating: 0x5A, count: size)
      _ = FileManager.default.createFile(atPath: scratch.file("plain"), contents: content)
      #expect(
        try fileVault("encrypt", scratch.file("plain"), scratch.file("vault"), passphrase: "pw")
          .status
          == 0)
      let decrypted = try fileVault(
        "decrypt", scratch.file("vault"), scratch.file("back"), passphrase: "pw")
      #expect(decrypted.status == 0, "\(decrypted.error)")
      #expect(FileManager.default.contents(atPath: scratch.file("back")) == content)
    }
  }

  /// A change to an encrypted file, and the message decrypting it must give.
  struct Damage: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let passphrase: String
    let message: String
    let apply: @Sendable (inout Data) -> Void
  }

  static let damages = [
    Damage(
      testDescription: "one byte of the eighth chunk flipped", passphrase: "right",
      message: "does not authenticate"
    ) { $0[vaultHeaderSize + 7 * sealedChunkSize + 1000] ^= 0x01 },
    Damage(
      testDescription: "a byte of the salt flipped", passphrase: "right",
      message: "does not authenticate"
    ) { $0[30] ^= 0x01 },
    Damage(
      testDescription: "the wrong passphrase", passphrase: "wrong",
      message: "the key (the passphrase) is wrong"
    ) { _ in },
    Damage(
      testDescription: "the final chunk cut off (truncated at a chunk boundary)",
      passphrase: "right",
      message: "ends before its final chunk"
    ) { $0 = $0.prefix(vaultHeaderSize + 16 * sealedChunkSize) },
    Damage(
      testDescription: "cut in the middle of a chunk", passphrase: "right",
      message: "does not authenticate"
    ) { $0 = $0.prefix(vaultHeaderSize + 5 * sealedChunkSize + 300) },
    Damage(
      // Read in whole sealed chunks, the short final chunk and what follows it
      // arrive in one read: libsodium sees one chunk that does not authenticate.
      testDescription: "a chunk appended after the final one", passphrase: "right",
      message: "does not authenticate"
    ) { $0.append($0.subdata(in: vaultHeaderSize..<(vaultHeaderSize + sealedChunkSize))) },
    Damage(
      testDescription: "the memory limit in the header set to 1 KiB", passphrase: "right",
      message: "memory limit of 1 KiB is below libsodium's minimum"
    ) { $0.replaceSubrange(16..<24, with: [0, 4, 0, 0, 0, 0, 0, 0]) },
  ]

  @Test(
    "a damaged file fails with the message that says why, and no plaintext is written",
    arguments: damages)
  func damaged(_ damage: Damage) throws {
    let scratch = ScratchDirectory()
    _ = FileManager.default.createFile(atPath: scratch.file("plain"), contents: samplePlaintext)
    #expect(
      try fileVault("encrypt", scratch.file("plain"), scratch.file("vault"), passphrase: "right")
        .status
        == 0)
    var sealed = try #require(FileManager.default.contents(atPath: scratch.file("vault")))
    damage.apply(&sealed)
    _ = FileManager.default.createFile(atPath: scratch.file("damaged"), contents: sealed)

    let result = try fileVault(
      "decrypt", scratch.file("damaged"), scratch.file("back"), passphrase: damage.passphrase)
    #expect(result.status == 1)
    #expect(result.error.contains(damage.message), "\(result.error)")
    #expect(result.error.contains("nothing was written to"), "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: scratch.file("back")))
  }

  @Test("a usage error exits 2 with the usage line")
  func usage() throws {
    let result = try runProgram([builtExecutable("file-vault"), "shred", "a", "b"])
    #expect(result.status == 2)
    #expect(result.error.contains("usage: file-vault encrypt|decrypt"))
  }
}

@Suite("libsodium's own C API agrees with SecureMemory")
struct SodiumOracleTests {
  struct KnownAnswer: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let password: [UInt8]
    let operations: UInt64
    let memory: Int
    let byteCount: Int
  }

  static let answers = [
    KnownAnswer(
      testDescription: "ASCII at interactive limits",
      password: Array("correct horse battery staple".utf8),
      operations: 2, memory: 64 << 20, byteCount: 32),
    KnownAnswer(
      testDescription: "UTF-8 and a NUL at minimum limits, 64 bytes",
      password: Array("pässwörd\0🔑".utf8),
      operations: 1, memory: 8192, byteCount: 64),
    KnownAnswer(
      testDescription: "empty at 3 passes over 1 MiB, 16 bytes", password: [], operations: 3,
      memory: 1 << 20, byteCount: 16),
  ]

  @Test(
    "KeyDerivation's key equals raw crypto_pwhash's for the same inputs",
    .enabled(if: SodiumOracle.isAvailable), arguments: answers)
  func knownAnswer(_ answer: KnownAnswer) throws {
    let salt: [UInt8] = (0..<16).map { UInt8(truncatingIfNeeded: $0 * 17 + 3) }
    var password = try SecureBuffer(capacity: answer.password.count)
    try answer.password.withUnsafeBytes { try password.append($0) }
    let derivation = try KeyDerivation(
      salt: salt, operationsLimit: answer.operations, memoryLimit: answer.memory)
    let key = try derivation.deriveKey(from: password, byteCount: answer.byteCount)
    let ours = key.withUnsafeBytes { hex($0) }

    let oracle = try SodiumOracle.call([
      "derive", hex(answer.password), hex(salt), "\(answer.operations)", "\(answer.memory)",
      "\(answer.byteCount)",
    ])
    #expect(oracle.status == 0, "\(oracle.error)")
    let theirs = oracle.output.trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(theirs.count == 2 * answer.byteCount)
    #expect(ours == theirs)
  }

  @Test(
    "a C program against libsodium decrypts the example's file with the same passphrase",
    .enabled(if: SodiumOracle.isAvailable))
  func cDecryptsTheExample() throws {
    let scratch = ScratchDirectory()
    _ = FileManager.default.createFile(atPath: scratch.file("plain"), contents: samplePlaintext)
    #expect(
      try fileVault(
        "encrypt", scratch.file("plain"), scratch.file("vault"), passphrase: "shared secret"
      ).status == 0)
    let decrypted = try SodiumOracle.call(["decrypt", scratch.file("vault"), "shared secret"])
    #expect(decrypted.status == 0, "\(decrypted.error)")
    #expect(Data(decrypted.outputBytes) == samplePlaintext)

    // Control: the oracle can fail. Another passphrase does not decrypt, and a
    // stream without its final chunk is refused.
    let wrong = try SodiumOracle.call(["decrypt", scratch.file("vault"), "another secret"])
    #expect(wrong.status == 8)
    let sealed = try #require(FileManager.default.contents(atPath: scratch.file("vault")))
    _ = FileManager.default.createFile(
      atPath: scratch.file("cut"), contents: sealed.prefix(vaultHeaderSize + 16 * sealedChunkSize))
    #expect(try SodiumOracle.call(["decrypt", scratch.file("cut"), "shared secret"]).status == 9)
  }
}
