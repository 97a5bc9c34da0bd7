import SecureMemory
import TestSupport
import Testing

/// A 32-byte stream key in secure memory; the array is the test's oracle.
func streamKey(_ seed: UInt8 = 7) throws -> SecureBuffer {
  try makeBuffer((0..<32).map { UInt8(truncatingIfNeeded: Int($0) * 31 + Int(seed)) })
}

/// A stream of `chunks` sealed under `key`, with its header.
func sealedStream(
  _ chunks: [[UInt8]], key: borrowing SecureBuffer
) throws -> (header: [UInt8], chunks: [[UInt8]]) {
  var sealer = try SecretStream.Sealer(key: key)
  var sealed: [[UInt8]] = []
  for (index, chunk) in chunks.enumerated() {
    let plaintext = try makeBuffer(chunk)
    sealed.append(sealer.seal(plaintext, isFinal: index == chunks.count - 1))
  }
  let isFinished = sealer.isFinished
  #expect(isFinished)
  return (sealer.header, sealed)
}

@Suite("SecretStream seals and opens chunks in secure memory")
struct SecretStreamTests {
  static let message: [[UInt8]] = [
    Array("first chunk of the message".utf8), Array(repeating: 0xA5, count: 5000), [],
    Array("the last one".utf8),
  ]

  @Test("what the sealer seals, the opener opens, chunk by chunk, into one buffer")
  func roundTrip() throws {
    let key = try streamKey()
    let (header, chunks) = try sealedStream(Self.message, key: key)
    #expect(header.count == SecretStream.headerByteCount)
    #expect(chunks.map(\.count) == Self.message.map { $0.count + SecretStream.chunkOverhead })

    var opener = try SecretStream.Opener(key: key, header: header)
    var plaintext = try SecureBuffer()
    var finals: [Bool] = []
    for chunk in chunks { finals.append(try opener.open(chunk, into: &plaintext)) }
    #expect(finals == [false, false, false, true])
    #expect(bytes(of: plaintext) == Self.message.flatMap { $0 })
    try opener.finish()
  }

  @Test("non-secret bytes seal into the same format, and the opener appends after what it holds")
  func nonSecretBytes() throws {
    let key = try streamKey()
    var sealer = try SecretStream.Sealer(key: key)
    let chunk = Array("public text".utf8)
    let sealed = chunk.withUnsafeBytes { sealer.seal(nonSecretBytes: $0, isFinal: true) }
    var opener = try SecretStream.Opener(key: key, header: sealer.header)
    var plaintext = try makeBuffer(Array("kept: ".utf8))
    #expect(try opener.open(sealed, into: &plaintext))
    #expect(bytes(of: plaintext) == Array("kept: public text".utf8))
  }

  @Test("two sealers under one key make different headers and different chunks")
  func freshHeaders() throws {
    let key = try streamKey()
    let first = try sealedStream([Array("same".utf8)], key: key)
    let second = try sealedStream([Array("same".utf8)], key: key)
    #expect(first.header != second.header)
    #expect(first.chunks != second.chunks)
  }

  /// A way a stream goes wrong, what opening it throws, and where.
  struct Damage: CustomTestStringConvertible, Sendable {
    let testDescription: String
    /// Turns the good stream (4 chunks, the last final) into the one opened.
    let apply: @Sendable (inout [[UInt8]]) -> Void
    let key: UInt8
    /// The chunk that must fail, or nil when every chunk opens and `finish` throws.
    let failingChunk: Int?
    let code: SecretStreamError.Code

    init(
      _ description: String, key: UInt8 = 7, failingChunk: Int?, code: SecretStreamError.Code,
      apply: @escaping @Sendable (inout [[UInt8]]) -> Void
    ) {
      self.testDescription = description
      self.key = key
      self.failingChunk = failingChunk
      self.code = code
      self.apply = apply
    }
  }

  static let damages = [
    Damage("a ciphertext byte flipped", failingChunk: 1, code: .chunkNotAuthenticated) {
      $0[1][10] ^= 0x01
    },
    Damage("the authenticator's last byte flipped", failingChunk: 0, code: .chunkNotAuthenticated) {
      $0[0][$0[0].count - 1] ^= 0x80
    },
    Damage(
      "the tag byte flipped (a final marked as a message)", failingChunk: 3,
      code: .chunkNotAuthenticated
    ) {
      $0[3][0] ^= 0x03
    },
    Damage("two chunks swapped", failingChunk: 1, code: .chunkNotAuthenticated) {
      $0.swapAt(1, 2)
    },
    Damage("a middle chunk dropped", failingChunk: 1, code: .chunkNotAuthenticated) {
      $0.remove(at: 1)
    },
    Damage("a chunk repeated", failingChunk: 2, code: .chunkNotAuthenticated) {
      $0.insert($0[1], at: 2)
    },
    Damage("a chunk cut short", failingChunk: 1, code: .chunkNotAuthenticated) {
      $0[1].removeLast(3)
    },
    Damage("a chunk shorter than the overhead", failingChunk: 2, code: .chunkNotAuthenticated) {
      $0[2] = Array($0[2][0..<16])
    },
    Damage("another key", key: 8, failingChunk: 0, code: .chunkNotAuthenticated) { _ in },
    Damage("a chunk after the final one", failingChunk: 4, code: .dataAfterFinalChunk) {
      $0.append($0[0])
    },
    Damage("the final chunk missing (truncated)", failingChunk: nil, code: .truncated) {
      $0.removeLast()
    },
    Damage("every chunk missing", failingChunk: nil, code: .truncated) {
      $0.removeAll()
    },
  ]

  @Test(
    "each damage is its own error, and the plaintext buffer is left exactly as it was",
    arguments: damages)
  func damagedStream(_ damage: Damage) throws {
    let (header, good) = try sealedStream(Self.message, key: try streamKey())
    var chunks = good
    damage.apply(&chunks)
    var opener = try SecretStream.Opener(key: try streamKey(damage.key), header: header)
    var plaintext = try makeBuffer(Array("already here".utf8))
    var expected = Array("already here".utf8)
    for (index, chunk) in chunks.enumerated() {
      if index == damage.failingChunk {
        let before = (bytes(of: plaintext), plaintext.count)
        let error = #expect(throws: SecretStreamError.self) {
          try opener.open(chunk, into: &plaintext)
        }
        #expect(error?.code == damage.code, "\(String(describing: error))")
        #expect(bytes(of: plaintext) == before.0)
        #expect(plaintext.count == before.1)
        #expect(bytes(of: plaintext) == expected)
        return
      }
      _ = try opener.open(chunk, into: &plaintext)
      expected += Self.message[index]
    }
    #expect(damage.failingChunk == nil, "chunk \(String(describing: damage.failingChunk)) opened")
    #expect(bytes(of: plaintext) == expected)
    do {
      try opener.finish()
      Issue.record("finish accepted a stream without its final chunk")
    } catch {
      #expect(error.code == damage.code, "\(error)")
      #expect(error.description.contains("before its final chunk"), "\(error)")
    }
  }

  @Test("after a chunk that does not authenticate, the right chunk still opens")
  func recoversAfterBadChunk() throws {
    let key = try streamKey()
    let (header, chunks) = try sealedStream(Self.message, key: key)
    var opener = try SecretStream.Opener(key: key, header: header)
    var plaintext = try SecureBuffer()
    var tampered = chunks[0]
    tampered[5] ^= 1
    #expect(throws: SecretStreamError.self) { try opener.open(tampered, into: &plaintext) }
    #expect(plaintext.count == 0)
    for chunk in chunks { _ = try opener.open(chunk, into: &plaintext) }
    #expect(bytes(of: plaintext) == Self.message.flatMap { $0 })
    try opener.finish()
  }

  @Test("a plaintext buffer that must grow keeps its bytes, and its count on failure")
  func growthOnFailure() throws {
    let key = try streamKey()
    let big = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
    let (header, chunks) = try sealedStream([big], key: key)
    var opener = try SecretStream.Opener(key: key, header: header)
    var plaintext = try makeBuffer(Array("x".utf8))
    let capacity = plaintext.capacity
    var tampered = chunks[0]
    tampered[100] ^= 1
    let error = #expect(throws: SecretStreamError.self) {
      try opener.open(tampered, into: &plaintext)
    }
    #expect(error?.code == .chunkNotAuthenticated)
    #expect(plaintext.capacity > capacity)
    #expect(bytes(of: plaintext) == Array("x".utf8))
    #expect(try opener.open(chunks[0], into: &plaintext))
    #expect(bytes(of: plaintext) == Array("x".utf8) + big)
  }

  @Test("a key of another length, or a header of another length, is refused with its own error")
  func wrongSizes() throws {
    for count in [0, 16, 31, 33, 64] {
      let key = try makeBuffer(Array(repeating: 1, count: count))
      let sealing = #expect(throws: SecretStreamError.self) {
        _ = try SecretStream.Sealer(key: key)
      }
      #expect(sealing?.code == .invalidKey)
      #expect(sealing?.description.contains("\(count) bytes") == true)
      let opening = #expect(throws: SecretStreamError.self) {
        _ = try SecretStream.Opener(key: key, header: Array(repeating: 0, count: 24))
      }
      #expect(opening?.code == .invalidKey)
    }
    let key = try streamKey()
    for count in [0, 23, 25] {
      let error = #expect(throws: SecretStreamError.self) {
        _ = try SecretStream.Opener(key: key, header: Array(repeating: 0, count: count))
      }
      #expect(error?.code == .invalidHeader)
    }
  }

  @Test("sealing after the final chunk traps")
  func sealAfterFinal() async {
    await #expect(processExitsWith: .failure) {
      var sealer = try! SecretStream.Sealer(key: try! streamKey())
      let chunk = try! makeBuffer([1, 2, 3])
      _ = sealer.seal(chunk, isFinal: true)
      _ = sealer.seal(chunk, isFinal: false)
    }
  }
}
