// file-vault: encrypts a file under a passphrase, and decrypts it.
//
//   file-vault encrypt INPUT OUTPUT [--stdin]
//   file-vault decrypt INPUT OUTPUT [--stdin]
//
// The passphrase comes from the terminal prompt (asked twice to encrypt), or
// with `--stdin` as one line of standard input. An example of SecureMemory's
// KeyDerivation and SecretStream, not a tool of SecretField: the passphrase,
// the key and the plaintext live in SecureBuffers only.
//
// The encrypted file: a 64-byte header (the magic `SFVAULT1`, Argon2id's
// operations and memory limits as little-endian 64-bit integers, the 16-byte
// salt, the 24-byte stream header), then libsodium's
// crypto_secretstream_xchacha20poly1305 chunks of 64 KiB of plaintext each (17
// bytes more sealed), the last one shorter and tagged final.

import Glibc
import SecretFieldTerminal
import SecretSources
import SecureMemory

let chunkSize = 64 * 1024
let magic = Array("SFVAULT1".utf8)
let headerSize = magic.count + 16 + KeyDerivation.saltByteCount + SecretStream.headerByteCount

/// Encrypts everything `input` holds into `output`, under `passphrase`.
func encrypt(_ input: Int32, to output: Int32, passphrase: borrowing SecureBuffer) throws {
  let derivation = try KeyDerivation.random(strength: .interactive)
  let key = try derivation.deriveKey(from: passphrase)  // 32 bytes, in a SecureBuffer
  var sealer = try SecretStream.Sealer(key: key)
  try writeAll(
    magic + littleEndian(derivation.operationsLimit) + littleEndian(UInt64(derivation.memoryLimit))
      + derivation.salt + sealer.header, to: output)
  var chunk = try SecureBuffer(capacity: chunkSize)
  var isFinal = false
  while !isFinal {
    chunk.removeAll()
    isFinal = try fill(&chunk, from: input)  // read(2) straight into secure memory
    try writeAll(sealer.seal(chunk, isFinal: isFinal), to: output)
  }
}

/// Decrypts `input` under `passphrase` and writes the plaintext to a new file at
/// `outputPath`, only once every chunk has authenticated and the final one came.
func decrypt(_ input: Int32, to outputPath: String, passphrase: borrowing SecureBuffer) throws {
  let header = try readUpTo(headerSize, from: input)
  guard header.count == headerSize, Array(header[0..<8]) == magic else {
    throw VaultFailure("not a file-vault file (no SFVAULT1 header)")
  }
  let derivation = try KeyDerivation(
    salt: Array(header[24..<40]), operationsLimit: integer(header[8..<16]),
    memoryLimit: Int(clamping: integer(header[16..<24])))
  let key = try derivation.deriveKey(from: passphrase)
  var opener = try SecretStream.Opener(key: key, header: Array(header[40..<64]))
  var plaintext = try SecureBuffer(capacity: max(0, fileSize(input) - headerSize))
  while case let chunk = try readUpTo(chunkSize + SecretStream.chunkOverhead, from: input),
    !chunk.isEmpty
  {
    _ = try opener.open(chunk, into: &plaintext)  // throws if it does not authenticate
  }
  try opener.finish()  // throws if the final chunk never came
  let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard output >= 0 else { throw VaultFailure("cannot create \(outputPath): \(lastError())") }
  defer { close(output) }
  try plaintext.write(to: output)  // write(2) straight from secure memory
}

/// Appends what `input` gives until `chunk` holds `chunkSize` bytes; true when
/// the input ended first.
func fill(_ chunk: inout SecureBuffer, from input: Int32) throws -> Bool {
  while chunk.count < chunkSize {
    if try chunk.read(from: input, maximumCount: chunkSize - chunk.count) == .endOfFile {
      return true
    }
  }
  return false
}

/// Reads until `count` bytes or the end of `input` (ciphertext, not secret).
func readUpTo(_ count: Int, from input: Int32) throws -> [UInt8] {
  var bytes = [UInt8](repeating: 0, count: count)
  var filled = 0
  while filled < count {
    let got = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress! + filled, count - filled) }
    if got < 0 && errno == EINTR { continue }
    guard got >= 0 else { throw VaultFailure("cannot read the input: \(lastError())") }
    if got == 0 { break }
    filled += got
  }
  return Array(bytes[0..<filled])
}

func writeAll(_ bytes: [UInt8], to output: Int32) throws {
  var written = 0
  while written < bytes.count {
    let done = bytes.withUnsafeBytes {
      write(output, $0.baseAddress! + written, $0.count - written)
    }
    if done < 0 && errno == EINTR { continue }
    guard done > 0 else { throw VaultFailure("cannot write the output: \(lastError())") }
    written += done
  }
}

func littleEndian(_ value: UInt64) -> [UInt8] {
  (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
  bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
}

func fileSize(_ descriptor: Int32) -> Int {
  var status = stat()
  return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
}

func lastError() -> String { String(cString: strerror(errno)) }

/// A failure of the example's own, with its message.
struct VaultFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The passphrase, from the terminal prompt or from one line of standard input.
func readPassphrase(confirming: Bool, fromStandardInput: Bool) throws -> SecureBuffer {
  var configuration = PromptConfiguration(prompt: "Passphrase:")
  if confirming { configuration.confirmation = .init(prompt: "Again:") }
  let source: SecretSource = fromStandardInput ? .standardInput : .terminal(configuration)
  do { return try source.obtain() } catch { throw VaultFailure(error.description) }
}

func run(_ arguments: [String]) -> Int32 {
  let fromStandardInput = arguments.contains("--stdin")
  let operands = arguments.filter { $0 != "--stdin" }
  guard operands.count == 3, ["encrypt", "decrypt"].contains(operands[0]) else {
    try? writeAll(Array("usage: file-vault encrypt|decrypt INPUT OUTPUT [--stdin]\n".utf8), to: 2)
    return 2
  }
  let (mode, inputPath, outputPath) = (operands[0], operands[1], operands[2])
  do {
    let input = open(inputPath, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw VaultFailure("cannot open \(inputPath): \(lastError())") }
    defer { close(input) }
    let passphrase = try readPassphrase(
      confirming: mode == "encrypt", fromStandardInput: fromStandardInput)
    if mode == "encrypt" {
      let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard output >= 0 else { throw VaultFailure("cannot create \(outputPath): \(lastError())") }
      defer { close(output) }
      try encrypt(input, to: output, passphrase: passphrase)
    } else {
      try decrypt(input, to: outputPath, passphrase: passphrase)
    }
    return 0
  } catch {
    let nothingWritten = mode == "decrypt" ? "; nothing was written to \(outputPath)" : ""
    try? writeAll(Array("file-vault: \(error)\(nothingWritten)\n".utf8), to: 2)
    return 1
  }
}

_ = ProcessHardening.apply()  // no core dumps, no same-user ptrace
exit(run(Array(CommandLine.arguments.dropFirst())))
