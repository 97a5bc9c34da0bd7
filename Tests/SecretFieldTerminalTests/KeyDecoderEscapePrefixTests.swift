@_spi(Testing) import SecretFieldTerminal
import Testing

/// An Esc before a key, as terminals that send Alt as an Esc prefix send Alt:
/// the key with Alt, never a lone Esc that cancels.
let escapePrefixCases: [DecoderCase] = [
  DecoderCase("Esc Esc [A is Alt+Up", esc + esc + "[A", [key(.key(.up, .alt))]),
  DecoderCase("Esc Esc O A is Alt+Up in SS3 form", esc + esc + "OA", [key(.key(.up, .alt))]),
  DecoderCase("Esc Esc x is Alt+x", esc + esc + "x", [key(.key(.character("x"), .alt))]),
  DecoderCase("Esc Esc [D is Alt+Left: a word left", esc + esc + "[D", [key(.moveWordLeft)]),
  DecoderCase("Esc Esc [3~ is Alt+Delete", esc + esc + "[3~", [key(.key(.delete, .alt))]),
  DecoderCase(
    "Esc Esc [5;2~ is Alt+Shift+Page Up", esc + esc + "[5;2~",
    [key(.key(.pageUp, [.alt, .shift]))]),
  DecoderCase("Esc Esc DEL is Alt+Backspace", esc + esc + "\u{7F}", [key(.deleteWordBackward)]),
  DecoderCase("Esc Esc then text", esc + esc + "[Aab", [key(.key(.up, .alt)), .text("ab")]),
  DecoderCase(
    "Esc Esc Esc is Esc thrice", esc + esc + esc, Array(repeating: key(.escape), count: 3)),
  DecoderCase("Esc before a focus report is Esc", esc + csi + "I", [key(.escape), key(.focusIn)]),
  DecoderCase(
    "Esc before a paste is Esc", esc + csi + "200~ab" + csi + "201~",
    [key(.escape), .paste("ab")]),
]

@Suite("KeyDecoder: an Esc that prefixes a key is Alt")
struct KeyDecoderEscapePrefixTests {
  @Test("an Esc that prefixes a key is that key with Alt", arguments: escapePrefixCases)
  func escapePrefix(_ testCase: DecoderCase) throws {
    #expect(try decode(testCase.input) == testCase.expected)
  }

  @Test("the same, one byte a read", arguments: escapePrefixCases)
  func escapePrefixByteByByte(_ testCase: DecoderCase) throws {
    var driver = try DecoderDriver()
    let decoded = try driver.decode(chunks: testCase.input.map { [$0] })
    #expect(mergingText(decoded) == mergingText(testCase.expected))
  }

  @Test("a lone Esc still cancels, at its deadline")
  func loneEscape() throws {
    #expect(try decode(Array(esc.utf8)) == [key(.escape)])
    #expect(try decode(Array(("ab" + esc).utf8)) == [.text("ab"), key(.escape)])
  }
}
