import Glibc
import SecretFieldTerminal
import SecureMemory
import Testing

struct WidthCase: CustomTestStringConvertible, Sendable {
  let text: String
  let columns: Int
  let why: String
  var testDescription: String { "\(why): \(text.debugDescription) takes \(columns)" }
}

let widthCases = [
  WidthCase(text: "a", columns: 1, why: "ASCII"),
  WidthCase(text: "é", columns: 1, why: "precomposed Latin"),
  WidthCase(text: "e\u{301}", columns: 1, why: "a combining mark adds nothing"),
  WidthCase(text: "漢", columns: 2, why: "CJK ideograph"),
  WidthCase(text: "한", columns: 2, why: "Hangul syllable"),
  WidthCase(text: "\u{1100}\u{1161}", columns: 2, why: "leading jamo wide, medial vowel zero"),
  WidthCase(text: "Ａ", columns: 2, why: "fullwidth form"),
  WidthCase(text: "ｱ", columns: 1, why: "halfwidth katakana"),
  WidthCase(text: "😀", columns: 2, why: "emoji presentation"),
  WidthCase(text: "\u{200D}", columns: 0, why: "zero width joiner"),
  WidthCase(text: "\u{FE0F}", columns: 0, why: "variation selector"),
  WidthCase(text: "\u{AD}", columns: 1, why: "soft hyphen, as wcwidth"),
  WidthCase(text: "\u{7}", columns: 0, why: "control"),
  WidthCase(text: "\u{85}", columns: 0, why: "C1 control"),
  WidthCase(text: "\u{20000}", columns: 2, why: "CJK extension B"),
  WidthCase(text: "\u{3FFFD}", columns: 2, why: "plane 3, unassigned, wide by default"),
  WidthCase(text: "ab漢😀", columns: 6, why: "a sum"),
]

@Suite("CharacterWidth counts terminal columns")
struct CharacterWidthTests {
  @Test("columns of text", arguments: widthCases)
  func widths(_ testCase: WidthCase) throws {
    let buffer = try secureBuffer(Array(testCase.text.utf8))
    let columns = buffer.withUnsafeBytes { CharacterWidth.columns(ofUTF8: $0) }
    #expect(columns == testCase.columns)
    if testCase.text.unicodeScalars.count == 1 {
      #expect(CharacterWidth.columns(of: testCase.text.unicodeScalars.first!) == testCase.columns)
    }
  }

  @Test("a byte that does not decode counts one column")
  func invalidByte() {
    let bytes: [UInt8] = [0x61, 0xFF, 0x62]
    #expect(bytes.withUnsafeBytes { CharacterWidth.columns(ofUTF8: $0) } == 3)
  }
}

struct LocaleCase: CustomTestStringConvertible, Sendable {
  let environment: [String: String]
  let isUTF8: Bool
  var testDescription: String { "\(environment) is \(isUTF8 ? "" : "not ")UTF-8" }
}

@Suite("TerminalLocale picks the mask glyph from the locale")
struct TerminalLocaleTests {
  @Test(
    "LC_ALL, then LC_CTYPE, then LANG decide",
    arguments: [
      LocaleCase(environment: ["LANG": "en_US.UTF-8"], isUTF8: true),
      LocaleCase(environment: ["LANG": "C.utf8"], isUTF8: true),
      LocaleCase(environment: ["LANG": "de_DE.UTF-8@euro"], isUTF8: true),
      LocaleCase(environment: ["LANG": "en_US.ISO-8859-1"], isUTF8: false),
      LocaleCase(environment: ["LANG": "C"], isUTF8: false),
      LocaleCase(environment: ["LANG": "POSIX"], isUTF8: false),
      LocaleCase(environment: [:], isUTF8: false),
      LocaleCase(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"], isUTF8: false),
      LocaleCase(environment: ["LC_CTYPE": "C.UTF-8", "LANG": "C"], isUTF8: true),
      LocaleCase(environment: ["LC_ALL": "", "LC_CTYPE": "C.UTF-8"], isUTF8: true),
    ])
  func decides(_ testCase: LocaleCase) {
    let locale = TerminalLocale(environment: testCase.environment)
    #expect(locale.isUTF8 == testCase.isUTF8)
    #expect(locale.maskGlyph == (testCase.isUTF8 ? "•" : "*"))
  }

  @Test(
    "a locale name alone decides as that name in LC_CTYPE does",
    arguments: ["en_US.UTF-8", "C.utf8", "de_DE.UTF-8@euro", "en_US.ISO-8859-1", "C", "", nil])
  func nameDecides(_ name: String?) {
    let fromEnvironment = TerminalLocale(environment: name.map { ["LC_CTYPE": $0] } ?? [:])
    #expect(TerminalLocale(localeName: name) == fromEnvironment)
  }
}

@Suite("ScreenWriter writes what it gathered, then secrets from secure memory, in order")
struct ScreenWriterTests {
  @Test("text, a secret range, more text: in call order")
  func order() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let secret = try secureBuffer(Array("hunter2".utf8))
    var writer = ScreenWriter(descriptor: ends[1])
    writer.append("pw: ")
    try writer.appendSecret(secret, range: 0..<6)
    writer.append(ControlSequence.cursorBackward(2))
    try writer.flush()
    var bytes = [UInt8](repeating: 0, count: 64)
    let got = bytes.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
    #expect(String(decoding: bytes[..<got], as: UTF8.self) == "pw: hunter\u{1B}[2D")
    #expect(writer.pendingCount == 0)
  }

  @Test("moves by zero write nothing")
  func zeroMoves() {
    #expect(ControlSequence.cursorForward(0) == "")
    #expect(ControlSequence.cursorBackward(-1) == "")
    #expect(ControlSequence.cursorToColumn(0) == "\u{1B}[1G")
    #expect(ControlSequence.pushKeyboardFlags(.passwordPrompt) == "\u{1B}[>25u")
  }
}

/// A secure buffer holding `bytes`: a test oracle moved into secure memory.
func secureBuffer(_ bytes: [UInt8]) throws -> SecureBuffer {
  var buffer = try SecureBuffer()
  try bytes.withUnsafeBytes { try buffer.append($0) }
  return buffer
}
