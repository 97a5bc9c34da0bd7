@_spi(Testing) import SecretFieldTerminal
import Testing

/// Sequences longer than the decoder's limit (4 KiB) that end, each followed
/// by `z`: whole in one read, a complete sequence was scanned as if it were
/// short (a key, a kitty key's text, the start of a paste), while the same
/// bytes split so that the limit was reached before the end were swallowed as
/// over-long. ECMA-48's rule, as issue 17 puts it: an over-long sequence is
/// swallowed to its end, never text, never a key, however the reads cut it.
let overlongCases: [DecoderCase] = [
  DecoderCase(
    "a Ctrl+Left padded past the limit with zeros is no key",
    csi + String(repeating: "0", count: 5000) + "1;5Dz", [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a kitty key padded past the limit gives no text",
    csi + String(repeating: "0", count: 5000) + "97uz", [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a paste start padded past the limit starts no paste",
    csi + String(repeating: "0", count: 5000) + "200~ab" + csi + "201~z",
    [key(.unknownSequence), .text("ab"), key(.unknownSequence), .text("z")]),
  DecoderCase(
    "an SS3 key padded past the limit is no key",
    esc + "O" + String(repeating: "1", count: 5000) + "Dz", [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a C1 CSI padded past the limit",
    bytes: [0xC2, 0x9B] + Array(repeating: 0x30, count: 5000)
      + Array("1;5Dz".utf8), [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "ESC and intermediates past the limit", esc + String(repeating: " ", count: 5000) + "Fz",
    [key(.unknownSequence), .text("z")]),
]

@Suite("KeyDecoder: an over-long sequence is swallowed however the reads cut it (issue 17)")
struct KeyDecoderOverlongTests {
  /// The reads to cut `input` into: whole, at the limit and around it, and in
  /// reads of 1,024 bytes as the prompt reads.
  static func splits(of input: [UInt8]) -> [[[UInt8]]] {
    let limit = KeyDecoder.Configuration().maximumSequenceCount
    var splits: [[[UInt8]]] = [[input]]
    for cut in [limit - 1, limit, limit + 1, input.count - 2] {
      splits.append([Array(input[..<cut]), Array(input[cut...])])
    }
    splits.append(
      stride(from: 0, to: input.count, by: 1024).map {
        Array(input[$0..<min($0 + 1024, input.count)])
      })
    return splits
  }

  @Test(
    "the same events whole and split, through next(at:) and in the prompt's window",
    arguments: overlongCases, [DecoderPath.next, .window])
  func wholeAndSplit(_ testCase: DecoderCase, path: DecoderPath) throws {
    try testCase.expectDecoded(.chosen(Self.splits(of: testCase.input)), through: path)
  }

  @Test("control: a sequence at the limit exactly is still a key, whole or split")
  func atTheLimit() throws {
    let limit = KeyDecoder.Configuration().maximumSequenceCount
    // ESC [ and 1;5D are six bytes: the zeros fill the rest of the limit.
    let input = Array((csi + String(repeating: "0", count: limit - 6) + "1;5Dz").utf8)
    #expect(input.count == limit + 1)
    for (index, chunks) in Self.splits(of: input).enumerated() {
      var driver = try DecoderDriver()
      let decoded = mergingText(try driver.decode(chunks: chunks))
      #expect(decoded == [key(.moveWordLeft), .text("z")], "split \(index)")
    }
  }
}
