import Pinentry
import SecureMemory
import Testing

/// The bytes of a secure buffer, for comparing with an oracle.
func bytes(of buffer: borrowing SecureBuffer) -> [UInt8] {
  buffer.withUnsafeBytes { Array($0) }
}

func secureBuffer(_ bytes: [UInt8]) -> SecureBuffer {
  var buffer = try! SecureBuffer(capacity: bytes.count)
  bytes.withUnsafeBytes { try! buffer.append($0) }
  return buffer
}

/// Decodes D lines (an oracle for the tests, in ordinary memory).
func decodeDataLines(_ lines: [String]) -> [UInt8] {
  lines.filter { $0.hasPrefix("D ") }.flatMap {
    AssuanEscaping.percentDecoded(Array($0.utf8.dropFirst(2)))
  }
}

@Suite("Assuan escaping, both ways")
struct AssuanEscapingTests {
  static let awkward: [UInt8] = Array("50% of a+b c\r\nü€😀".utf8)

  @Test("D lines escape %, CR and LF and nothing else")
  func dataLinesEscape() throws {
    var buffer = try SecureBuffer()
    try Self.awkward.withUnsafeBytes { raw in try AssuanEscaping.appendDataLines(raw, to: &buffer) }
    #expect(String(decoding: bytes(of: buffer), as: UTF8.self) == "D 50%25 of a+b c%0D%0Aü€😀\n")
  }

  @Test("the secure and the plain D-line encoders agree")
  func encodersAgree() throws {
    let data = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
    var buffer = try SecureBuffer()
    try data.withUnsafeBytes { raw in try AssuanEscaping.appendDataLines(raw, to: &buffer) }
    #expect(bytes(of: buffer) == AssuanResponse.data(data).encoded)
  }

  struct SplitCase: CustomTestStringConvertible, Sendable {
    let name: String
    let data: [UInt8]
    var testDescription: String { name }
  }

  static let splitCases: [SplitCase] = [
    SplitCase(name: "plain bytes", data: [UInt8](repeating: UInt8(ascii: "x"), count: 2500)),
    SplitCase(name: "all escapes", data: [UInt8](repeating: UInt8(ascii: "%"), count: 1000)),
    SplitCase(
      name: "escapes at every line end",
      data: (0..<3000).map { $0 % 997 >= 995 ? UInt8(ascii: "\n") : UInt8(ascii: "a") }),
    SplitCase(name: "every byte", data: (0..<2048).map { UInt8(truncatingIfNeeded: $0) }),
  ]

  @Test(
    "long data splits into D lines of at most 1000 bytes that decode to the data",
    arguments: splitCases)
  func longDataSplits(_ example: SplitCase) throws {
    var buffer = try SecureBuffer()
    try example.data.withUnsafeBytes { raw in try AssuanEscaping.appendDataLines(raw, to: &buffer) }
    let encoded = bytes(of: buffer)
    #expect(encoded.last == UInt8(ascii: "\n"))
    let lines = encoded.split(separator: UInt8(ascii: "\n"))
    #expect(lines.count > 1)
    for line in lines {
      #expect(line.count + 1 <= 1000)
      #expect(line.starts(with: [UInt8(ascii: "D"), UInt8(ascii: " ")]))
      #expect(!line.dropFirst(2).contains(UInt8(ascii: "\r")))
    }
    let decoded = lines.flatMap { AssuanEscaping.percentDecoded($0.dropFirst(2)) }
    #expect(decoded == example.data)
  }

  @Test("a small line limit splits between escapes, never inside one")
  func smallLimit() throws {
    var buffer = try SecureBuffer()
    try Array("ab%%c".utf8).withUnsafeBytes { raw in
      try AssuanEscaping.appendDataLines(raw, to: &buffer, maximumLineLength: 7)
    }
    #expect(String(decoding: bytes(of: buffer), as: UTF8.self) == "D ab\nD %25\nD %25c\n")
  }

  @Test("empty data is no D line at all")
  func emptyData() throws {
    var buffer = try SecureBuffer()
    try [UInt8]().withUnsafeBytes { raw in try AssuanEscaping.appendDataLines(raw, to: &buffer) }
    let isEmpty = buffer.isEmpty
    #expect(isEmpty)
    #expect(AssuanResponse.data([]).encoded.isEmpty)
  }

  @Test("plus-escaping turns space into + and escapes +, %, controls and DEL")
  func plusEscapes() throws {
    var buffer = try SecureBuffer()
    let input: [UInt8] = Array("a b+c%d".utf8) + [0x01, 0x1F, 0x7F, 0x0A] + Array("é~".utf8)
    try input.withUnsafeBytes { raw in try AssuanEscaping.appendPlusEscaped(raw, to: &buffer) }
    #expect(String(decoding: bytes(of: buffer), as: UTF8.self) == "a+b%2Bc%25d%01%1F%7F%0Aé~")
  }

  @Test("percent-decoding into secure memory matches the plain decoder")
  func secureDecoding() throws {
    let escaped = Array("x%25y%0d%0A%zz%4+%C3%BC%".utf8)
    var buffer = try SecureBuffer()
    try escaped.withUnsafeBytes { raw in try AssuanEscaping.appendPercentDecoded(raw, to: &buffer) }
    #expect(bytes(of: buffer) == AssuanEscaping.percentDecoded(escaped))
    #expect(bytes(of: buffer) == Array("x%y\r\n%zz%4+ü%".utf8))
  }
}

@Suite("Assuan responses are written as the protocol spells them")
struct AssuanResponseTests {
  @Test(
    "each response kind encodes to its line",
    arguments: [
      (AssuanResponse.ok(), "OK\n"),
      (.ok("Pleased to meet you"), "OK Pleased to meet you\n"),
      (.error(.cancelled), "ERR 83886179 Operation cancelled <Pinentry>\n"),
      (.error(.notConfirmed), "ERR 83886194 Not confirmed <Pinentry>\n"),
      (.error(.timeout), "ERR 83886142 Timeout <Pinentry>\n"),
      (.error(.unknownOption), "ERR 83886254 Unknown option <Pinentry>\n"),
      (.error(.parameter), "ERR 83886360 IPC parameter error <Pinentry>\n"),
      (.error(.fullyCancelled), "ERR 83886278 Operation fully cancelled <Pinentry>\n"),
      (.error(.unknownCommand), "ERR 83886355 Unknown IPC command <Pinentry>\n"),
      (.error(.lineTooLong), "ERR 83886343 Line passed to IPC too long <Pinentry>\n"),
      (
        .error(.syntax("no option name given")),
        "ERR 83886356 IPC syntax error <Pinentry> - no option name given\n"
      ),
      (.status("PIN_REPEATED"), "S PIN_REPEATED\n"),
      (.status("ERROR", "curses.isatty 1"), "S ERROR curses.isatty 1\n"),
      (.comment("GETPIN"), "# GETPIN\n"),
      (.inquire("QUALITY", "a+b"), "INQUIRE QUALITY a+b\n"),
      (.data(Array("1.2%\n".utf8)), "D 1.2%25%0A\n"),
    ])
  func encodes(_ pair: (AssuanResponse, String)) {
    #expect(String(decoding: pair.0.encoded, as: UTF8.self) == pair.1)
  }
}
