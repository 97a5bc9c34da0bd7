import SecureMemory
import TestSupport
import Testing

/// Test data, never a marker.
private func text(of buffer: borrowing SecureBuffer) -> String {
  buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

@Suite("Parts of a buffer: compared, copied, appended and sealed without a copy of the whole")
struct SecureBufferRangeTests {
  @Test("constantTimeEquals compares the parts named; the whole buffers differ (control)")
  func comparesParts() throws {
    let vault = try secureText("alice:s3cret;bob:hunter2")
    let candidate = try secureText("hunter2")
    let bob = 17..<24
    let results = [
      candidate.constantTimeEquals(vault, otherRange: bob),
      vault.constantTimeEquals(candidate, range: bob),
      // Control: the whole vault is not the candidate.
      candidate.constantTimeEquals(vault),
      // Another entry, and a shorter part.
      candidate.constantTimeEquals(vault, otherRange: 6..<13),
      candidate.constantTimeEquals(vault, otherRange: 17..<23),
    ]
    #expect(results == [true, true, false, false, false])
    let same = try SecureBuffer(copying: vault)
    let bothParts = vault.constantTimeEquals(same, range: bob, otherRange: bob)
    #expect(bothParts)
  }

  @Test("constantTimeEquals(bytes:) compares against bytes the caller holds in a window")
  func comparesBytesInAWindow() throws {
    let one = try secureText("one")
    let two = try secureText("hunter2")
    let three = try secureText("three")
    let candidate = try secureText("hunter2")
    let matches = candidate.withUnsafeBytes { typed in
      [
        one.constantTimeEquals(bytes: typed), two.constantTimeEquals(bytes: typed),
        three.constantTimeEquals(bytes: typed),
      ]
    }
    #expect(matches == [false, true, false])
    let vault = try secureText("xxhunter2yy")
    let inPlace = candidate.withUnsafeBytes { vault.constantTimeEquals(bytes: $0, range: 2..<9) }
    let shifted = candidate.withUnsafeBytes { vault.constantTimeEquals(bytes: $0, range: 1..<8) }
    #expect(inPlace)
    #expect(!shifted)
  }

  @Test("init(copying:range:) and append(contentsOf:range:) take the part alone")
  func copiesParts() throws {
    let vault = try secureText("alice:s3cret;bob:hunter2")
    let copy = try SecureBuffer(copying: vault, range: 6..<12)
    let copied = text(of: copy)
    let count = copy.count
    #expect(copied == "s3cret")
    #expect(count == 6)
    var joined = try secureText(">")
    try joined.append(contentsOf: vault, range: 17..<24)
    let once = text(of: joined)
    try joined.append(contentsOf: vault, range: 0..<0)
    let again = text(of: joined)
    #expect(once == ">hunter2")
    #expect(again == ">hunter2")
  }

  @Test("seal(_:range:isFinal:) seals a chunk of a larger buffer; it opens to that chunk")
  func sealsAPart() throws {
    let key = try SecureBuffer.random(count: SecretStream.keyByteCount)
    let data = try secureText("first chunk|second chunk")
    var sealer = try SecretStream.Sealer(key: key)
    let first = sealer.seal(data, range: 0..<11, isFinal: false)
    let second = sealer.seal(data, range: 12..<24, isFinal: true)
    #expect(first.count == 11 + SecretStream.chunkOverhead)
    var opener = try SecretStream.Opener(key: key, header: sealer.header)
    var plaintext = try SecureBuffer(capacity: 32)
    _ = try opener.open(first, into: &plaintext)
    let firstText = text(of: plaintext)
    plaintext.removeAll()
    let final = try opener.open(second, into: &plaintext)
    let secondText = text(of: plaintext)
    #expect(firstText == "first chunk")
    #expect(final)
    #expect(secondText == "second chunk")
  }

  @Test("a range past the end traps with a message, before anything is read")
  func rangePastEndTraps() async {
    await #expect(processExitsWith: .failure) {
      let vault = try! secureText("short")
      _ = try? SecureBuffer(copying: vault, range: 2..<9)
    }
    await #expect(processExitsWith: .failure) {
      let vault = try! secureText("short")
      _ = vault.constantTimeEquals(
        bytes: UnsafeRawBufferPointer(start: nil, count: 0), range: 6..<6)
    }
  }
}
