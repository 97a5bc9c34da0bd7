import SecureMemory
import SecretField
import Testing

@Suite("Limits and bad input are refused, and the field stays exactly as it was")
struct SecretFieldLimitsTests {
  /// A field with text, a selection, a mode and a last-typed reveal: all of it
  /// must survive a refused call.
  func busyField(limits: FieldLimits = .default) throws -> SecretFieldState {
    var field = try makeField("abcdef", limits: limits, mode: .revealLastTyped())
    field.select(2..<2)
    try field.insert("x", at: testEpoch)
    field.moveCaret(.right, extendingSelection: true)
    try field.setObfuscationMode(.revealLastTyped())
    try field.insert("y", at: testEpoch)
    return field
  }

  /// A limit a busy field (7 characters, 7 bytes) meets: a paste one past
  /// it, refused with `code` (and a message naming the limit, when given),
  /// and one that fills it exactly.
  struct Limit: CustomTestStringConvertible, Sendable {
    enum Measure: Sendable { case characters, bytes }
    let name: String
    let limits: FieldLimits
    let measure: Measure
    let tooMuch: String
    let code: FieldError.Code
    var message: String? = nil
    let fits: String
    var testDescription: String { name }

    var maximum: Int {
      measure == .characters ? limits.maxCharacters : limits.maxBytes
    }

    func measured(_ field: borrowing SecretFieldState) -> Int {
      switch measure {
      case .characters: field.count
      case .bytes: field.utf8Count
      }
    }
  }

  @Test(
    "a paste past the character or byte limit is refused; one that fits exactly is taken",
    arguments: [
      Limit(
        name: "characters", limits: FieldLimits(maxCharacters: 10, maxBytes: 100),
        measure: .characters, tooMuch: "1234", code: .tooManyCharacters,
        message: "10 characters", fits: "123"),
      Limit(
        name: "bytes", limits: FieldLimits(maxCharacters: 100, maxBytes: 12), measure: .bytes,
        tooMuch: "😀ab", code: .tooManyBytes, fits: "😀a"),
    ])
  func pasteLimit(_ limit: Limit) throws {
    var field = try busyField(limits: limit.limits)
    #expect(limit.measured(field) == 7)
    let before = field.snapshot
    let error = fieldError { () throws(FieldError) in try field.paste(limit.tooMuch) }
    #expect(error?.code == limit.code)
    if let message = limit.message {
      #expect(error?.description.contains(message) == true)
    }
    #expect(field.snapshot == before)
    try field.paste(limit.fits)
    #expect(limit.measured(field) == limit.maximum, "control: up to the limit is fine")
  }

  @Test("a combining mark fits under a full character limit; replacing a selection when full works")
  func limitCountsCharacters() throws {
    var field = try makeField("abc", limits: FieldLimits(maxCharacters: 3, maxBytes: 64))
    try field.insert("\u{301}")
    #expect(field.count == 3)
    field.select(0..<1)
    try field.insert("z")
    #expect(field.string == "zbc\u{301}")
  }

  @Test("the default limits are 1,024 characters and 8 KiB")
  func defaults() throws {
    var field = try makeField()
    try field.paste(String(repeating: "a", count: 1024))
    #expect(
      fieldError { () throws(FieldError) in try field.insert("a") }?.code == .tooManyCharacters)
    field.clear()
    // One character of 8,189 bytes: a letter and 4,094 combining accents.
    try field.paste("a" + String(repeating: "\u{301}", count: 4094))
    try field.paste("abc")
    #expect(field.utf8Count == 8192)
    #expect(fieldError { () throws(FieldError) in try field.insert("a") }?.code == .tooManyBytes)
  }

  struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let code: FieldError.Code
    var testDescription: String { name }
  }

  @Test(
    "bad input is refused by insert and paste with the field unchanged",
    arguments: [
      BadInput(name: "lone continuation byte", bytes: [0x61, 0x80], code: .invalidUTF8),
      BadInput(name: "overlong slash", bytes: [0xC0, 0xAF], code: .invalidUTF8),
      BadInput(name: "overlong three-byte", bytes: [0xE0, 0x80, 0xAF], code: .invalidUTF8),
      BadInput(name: "UTF-16 surrogate", bytes: [0xED, 0xA0, 0x80], code: .invalidUTF8),
      BadInput(name: "past U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], code: .invalidUTF8),
      BadInput(name: "truncated sequence", bytes: [0x61, 0xE2, 0x82], code: .invalidUTF8),
      BadInput(name: "byte F8", bytes: [0xF8, 0x88, 0x80, 0x80, 0x80], code: .invalidUTF8),
      BadInput(name: "NUL", bytes: [0x61, 0x00], code: .controlCharacter),
      BadInput(name: "tab", bytes: Array("a\tb".utf8), code: .controlCharacter),
      BadInput(name: "line feed", bytes: [0x0A], code: .controlCharacter),
      BadInput(name: "carriage return", bytes: [0x0D], code: .controlCharacter),
      BadInput(name: "escape", bytes: [0x1B, 0x5B, 0x41], code: .controlCharacter),
      BadInput(name: "DEL", bytes: [0x7F], code: .controlCharacter),
      BadInput(name: "C1 next line U+0085", bytes: [0xC2, 0x85], code: .controlCharacter),
      BadInput(name: "C1 U+009F after text", bytes: [0x61, 0xC2, 0x9F], code: .controlCharacter),
    ])
  func badInput(_ input: BadInput) throws {
    var field = try busyField()
    let before = field.snapshot
    let inserted = fieldError { () throws(FieldError) in try field.insert(bytes: input.bytes) }
    #expect(inserted?.code == input.code)
    #expect(field.snapshot == before)
    let pasted = fieldError { () throws(FieldError) in try field.paste(bytes: input.bytes) }
    #expect(pasted?.code == input.code)
    #expect(field.snapshot == before)
  }

  @Test(
    "control: edge scalars that are valid and printable are taken",
    arguments: [
      [0xC2, 0xA0], [0xEF, 0xBF, 0xBD], [0xF4, 0x8F, 0xBF, 0xBF], [0xE0, 0xA0, 0x80],
      [0xF0, 0x90, 0x80, 0x80], [0x7E],
    ] as [[UInt8]])
  func validEdges(_ bytes: [UInt8]) throws {
    var field = try makeField()
    try field.insert(bytes: bytes)
    #expect(field.bytes == bytes)
  }
}
