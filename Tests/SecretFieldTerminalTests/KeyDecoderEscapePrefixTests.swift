import SecretField
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

/// OSC, DCS, APC, PM and SOS from the keyboard (Alt+], Alt+P, Alt+_, Alt+^,
/// Alt+X): a control the user types ends the string and is a key.
let keyboardStringCases: [DecoderCase] = [
  DecoderCase("Alt+] then text then Enter", esc + "]abc\r", [key(.unknownSequence), key(.submit)]),
  DecoderCase("Alt+] then Enter", esc + "]\r", [key(.unknownSequence), key(.submit)]),
  DecoderCase(
    "Alt+P then text then ^C", esc + "Pabc\u{03}", [key(.unknownSequence), key(.cancel)]),
  DecoderCase(
    "Alt+_ then text then ^D", esc + "_abc\u{04}", [key(.unknownSequence), key(.endOfInput)]),
  DecoderCase(
    "Alt+^ then text then Esc", esc + "^abc" + esc, [key(.unknownSequence), key(.escape)]),
  DecoderCase(
    "Alt+X then text then Alt+x", esc + "Xabc" + esc + "x",
    [key(.unknownSequence), key(.key(.character("x"), .alt))]),
  DecoderCase(
    "a C1 OSC as UTF-8 then Enter", bytes: [0xC2, 0x9D] + Array("abc\r".utf8),
    [key(.unknownSequence), key(.submit)]),
  DecoderCase(
    "Alt+] past the limit then Enter", esc + "]" + String(repeating: "x", count: 5000) + "\r",
    [key(.unknownSequence), key(.submit)]),
  DecoderCase(
    "Alt+] past the limit then Esc", esc + "]" + String(repeating: "x", count: 5000) + esc,
    [key(.unknownSequence), key(.escape)]),
  DecoderCase(
    "Alt+Alt+] then Enter", esc + esc + "]abc\r", [key(.unknownSequence), key(.submit)]),
  DecoderCase(
    "ST still ends a string", esc + "]0;t" + esc + "\\z", [key(.unknownSequence), .text("z")]),
]

@Suite("KeyDecoder: an Esc prefix is Alt; a typed control ends a string")
struct KeyDecoderEscapePrefixTests {
  @Test(
    "an Esc that prefixes a key is that key with Alt, and a string from the keyboard ends at a typed control, in one read or one byte a read",
    arguments: escapePrefixCases + keyboardStringCases, [Reads.whole, .bytewise])
  func escapePrefixAndKeyboardString(_ testCase: DecoderCase, reads: Reads) throws {
    try testCase.expectDecoded(reads)
  }

  @Test("a lone Esc still cancels, at its deadline")
  func loneEscape() throws {
    #expect(try decode(Array(esc.utf8)) == [key(.escape)])
    #expect(try decode(Array(("ab" + esc).utf8)) == [.text("ab"), key(.escape)])
  }

  @Test("a string cut short by the wait still ends at the next typed Enter")
  func stringAfterTheWait() throws {
    let rest = try decodeAfterTimeout(cutting: esc + "]ab", then: "cd\r")
    #expect(rest == [key(.submit)], "no byte of the string is text")
  }
}
