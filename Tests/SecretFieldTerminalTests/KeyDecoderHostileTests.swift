import SecretField
@_spi(Testing) import SecretFieldTerminal
import Testing

/// Bytes that belong to a control sequence by ECMA-48's grammar, which must never
/// come out as text, however long or malformed the sequence.
let hostileCases: [DecoderCase] = [
  DecoderCase(
    "a CSI with parameters past the 4 KiB limit is swallowed to its final byte",
    csi + String(repeating: "1;", count: 3000) + "Z" + "z", [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "an OSC past the limit is swallowed to its BEL",
    esc + "]0;" + String(repeating: "x", count: 10_000) + "\u{07}z",
    [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a DCS past the limit is swallowed to its ST",
    esc + "P" + String(repeating: "q", count: 9000) + esc + "\\z",
    [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "an APC past the limit ends at an ESC that is not ST, which is a key",
    esc + "_" + String(repeating: "G", count: 5000) + esc + "az",
    [key(.unknownSequence), key(.key(.character("a"), .alt)), .text("z")]),
  DecoderCase(
    "a parameter byte after an intermediate: the sequence still runs to its final byte",
    csi + "-1u", [key(.unknownSequence)]),
  DecoderCase(
    "parameters after an intermediate, then text", csi + " 1;2qab",
    [key(.unknownSequence), .text("ab")]),
  DecoderCase("ESC ( B is one sequence", esc + "(Bz", [key(.unknownSequence), .text("z")]),
  DecoderCase("ESC SP F is one sequence", esc + " Fz", [key(.unknownSequence), .text("z")]),
  DecoderCase("a C1 CSI as UTF-8", bytes: [0xC2, 0x9B, 0x31, 0x7E], [key(.unknownSequence)]),
  DecoderCase(
    "a C1 CSI as UTF-8 is never a key",
    bytes: [0xC2, 0x9B] + Array("97u".utf8) + [0x7A], [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a C1 OSC as UTF-8, ended by BEL",
    bytes: [0xC2, 0x9D] + Array("0;title\u{07}z".utf8), [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a C1 DCS as UTF-8, ended by a C1 ST",
    bytes: [0xC2, 0x90] + Array("1$r0m".utf8) + [0xC2, 0x9C, 0x7A],
    [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a C1 APC as UTF-8, ended by ESC \\",
    bytes: [0xC2, 0x9F] + Array("Gi=1\u{1B}\\z".utf8), [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a C1 SS3 as UTF-8 takes its final byte", bytes: [0xC2, 0x8F, 0x44, 0x7A],
    [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "an OSC ended by a C1 ST", esc + "]0;t\u{9C}z", [key(.unknownSequence), .text("z")]),
  DecoderCase(
    "a kitty key whose modifier overflows is dropped", csi + "97;99999999999999999999u",
    [key(.unknownSequence)]),
  DecoderCase(
    "a kitty key whose event type overflows is dropped", csi + "97;1:99999999999999u",
    [key(.unknownSequence)]),
  DecoderCase(
    "a kitty key whose code overflows is dropped", csi + "99999999999999999999;1;97u",
    [key(.unknownSequence)]),
  DecoderCase(
    "a legacy key whose modifier overflows is dropped", csi + "1;99999999999999D",
    [key(.unknownSequence)]),
  DecoderCase(
    "a kitty key with a stray private byte is dropped", csi + "97;1=u", [key(.unknownSequence)]),
]

@Suite("KeyDecoder: no byte of a control sequence is ever text (issue 17)")
struct KeyDecoderHostileTests {
  @Test(
    "each hostile sequence gives no text of its own, in one read or in reads of 1,024 bytes as the prompt reads",
    arguments: hostileCases, [Reads.whole, .ofSize(1024)])
  func hostile(_ testCase: DecoderCase, reads: Reads) throws {
    try testCase.expectDecoded(reads)
  }

  @Test("the decoder keeps no more than its limit of a sequence that never ends")
  func boundedState() throws {
    var driver = try DecoderDriver()
    try driver.receive(Array((esc + "]0;").utf8))
    for _ in 0..<64 {
      try driver.receive([UInt8](repeating: UInt8(ascii: "x"), count: 1024))
      _ = try driver.drain()
      #expect(driver.decoder.pendingInputCount <= KeyDecoder.Configuration().maximumSequenceCount)
    }
    try driver.receive(Array("\u{07}ok".utf8))
    #expect(try driver.drain().decoded == [.text("ok")])
  }

  @Test("a sequence cut by the escape timeout is still swallowed when its rest arrives")
  func afterTimeout() throws {
    let rest = try decodeAfterTimeout(cutting: csi + "1;", then: "5uab")
    #expect(rest == [.text("ab")])
  }
}
