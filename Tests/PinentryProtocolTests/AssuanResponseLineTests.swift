import Glibc
import Pinentry
import Testing

/// True when `bytes` is one Assuan line a client can read: it ends in its only
/// LF, holds at most 1,000 bytes with it, and no other control byte.
func isValidResponseLine(_ bytes: ArraySlice<UInt8>) -> Bool {
  guard bytes.count <= AssuanLine.maximumLength, bytes.last == UInt8(ascii: "\n") else {
    return false
  }
  return !bytes.dropLast().contains { $0 < 0x20 || $0 == 0x7F }
}

@Suite("Every response is a valid Assuan line, whatever text from outside it quotes")
struct AssuanResponseLineTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let response: AssuanResponse
    var testDescription: String { name }
  }

  static let hostile = "/x\nOK\r\u{0}%\u{7F}\u{1B}[2J"
  static let cases: [Case] = [
    Case(
      name: "an error quoting a path with LF, CR, NUL, % and Esc",
      response: .error(.general(hostile))),
    Case(
      name: "an error with a 5,000-byte detail",
      response: .error(.general(String(repeating: "p", count: 5000)))),
    Case(
      name: "an error with 2,000 line feeds",
      response: .error(.general(String(repeating: "\n", count: 2000)))),
    Case(name: "OK with a line feed", response: .ok("a\nb")),
    Case(
      name: "a status with long info",
      response: .status("PIN_REPEATED", String(repeating: "é", count: 900))),
    Case(name: "a comment with control bytes", response: .comment("\u{0}\r\n")),
    Case(name: "an inquiry with a line feed", response: .inquire("QUALITY", "x\ny")),
  ]

  @Test("the line ends in its only LF, within 1,000 bytes, with no control byte", arguments: cases)
  func validLine(_ example: Case) {
    let encoded = example.response.encoded
    #expect(
      isValidResponseLine(encoded[...]),
      "\(String(decoding: encoded, as: UTF8.self).debugDescription)")
  }

  @Test("quoted control bytes and % are percent-escaped, so the client can read them back")
  func escapes() {
    let line = String(decoding: AssuanResponse.error(.general(Self.hostile)).encoded, as: UTF8.self)
    #expect(line == "ERR 83886081 General error <Pinentry> - /x%0AOK%0D%00%25%7F%1B[2J\n")
  }

  @Test("a cut never splits a character or an escape")
  func cutsWhole() {
    for tail in ["€", "%", "\n", "a"] {
      let encoded = AssuanResponse.error(.general(String(repeating: tail, count: 1500))).encoded
      #expect(encoded.count <= AssuanLine.maximumLength)
      #expect(encoded.count >= AssuanLine.maximumLength - 4, "cut no more than needed")
      let text = String(decoding: encoded, as: UTF8.self)
      #expect(!text.contains("\u{FFFD}"), "no character split")
      let detail = text.dropFirst("ERR 83886081 General error <Pinentry> - ".count).dropLast()
      let unit = tail == "%" ? "%25" : tail == "\n" ? "%0A" : tail
      #expect(detail.count % unit.count == 0 && detail.replacingOccurrences(of: unit) == "")
    }
  }

  @Test("an error quoting a 990-byte ttyname stays within the limit, and so does every line")
  func longTtyname() throws {
    let name = "/" + String(repeating: "t", count: 989)
    let talk = try converse(
      "OPTION ttyname=\(name)\nGETPIN\nGETINFO ttyinfo\n",
      interface: ScriptedInterface(pins: [.fail(.general("cannot use \(name)"))]))
    let lines = talk.output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .dropLast()
    #expect(lines.allSatisfy { $0.count + 1 <= AssuanLine.maximumLength })
    #expect(talk.responses.last == "OK", "\(talk.responses)")
    #expect(talk.responses[1].hasPrefix("ERR 83886081 General error <Pinentry> - cannot use /ttt"))
  }
}

extension Substring {
  fileprivate func replacingOccurrences(of unit: String) -> String {
    var rest = Substring(self)
    while rest.hasPrefix(unit) { rest = rest.dropFirst(unit.count) }
    return String(rest)
  }
}
