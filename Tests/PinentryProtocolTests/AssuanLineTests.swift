import Pinentry
import Testing

@Suite("Assuan request lines parse as libassuan parses them")
struct AssuanLineTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let line: String
    let expected: AssuanLine
    var testDescription: String { "\(line.debugDescription) → \(expected)" }
  }

  static let cases: [Case] = [
    Case(line: "GETPIN", expected: .command(AssuanCommand(verb: "GETPIN"))),
    Case(line: "getpin", expected: .command(AssuanCommand(verb: "GETPIN"))),
    Case(
      line: "SetDesc  two  spaces ",
      expected: .command(AssuanCommand(verb: "SETDESC", arguments: Array("two  spaces ".utf8)))),
    Case(
      line: "SETDESC\tA%20b",
      expected: .command(AssuanCommand(verb: "SETDESC", arguments: Array("A%20b".utf8)))),
    Case(line: "NOP\r", expected: .command(AssuanCommand(verb: "NOP"))),
    Case(line: "# a comment", expected: .comment),
    Case(line: "#", expected: .comment),
    Case(line: "", expected: .empty),
    Case(line: "\r", expected: .empty),
  ]

  @Test("a line parses into its verb, in upper case, and its raw arguments", arguments: cases)
  func parses(_ example: Case) throws {
    #expect(try AssuanLine(parsing: Array(example.line.utf8)) == example.expected)
  }

  @Test("a line that starts with white space is a syntax error", arguments: [" NOP", "\tNOP"])
  func leadingWhiteSpace(_ line: String) {
    #expect(throws: AssuanError.syntax("leading white-space")) {
      try AssuanLine(parsing: Array(line.utf8))
    }
  }

  @Test("text arguments are percent-unescaped, and + stays a +")
  func textUnescapes() {
    let command = AssuanCommand(verb: "SETDESC", arguments: Array("a+b%20c%0Ad%0ae%25%zz%4".utf8))
    #expect(command.text == "a+b c\nd\ne%%zz%4")
    #expect(command.rawText == "a+b%20c%0Ad%0ae%25%zz%4")
  }

  @Test("escaped multi-byte characters decode to their UTF-8")
  func textDecodesUTF8() {
    let command = AssuanCommand(verb: "SETDESC", arguments: Array("%C3%BC%E2%82%AC and €".utf8))
    #expect(command.text == "ü€ and €")
  }
}

@Suite("Accelerator marks are stripped from labels")
struct AcceleratorTests {
  @Test(
    "a single underscore goes, a double one stays single",
    arguments: [
      ("_OK", "OK"), ("_Cancel", "Cancel"),
      ("_Save in password manager", "Save in password manager"),
      ("snake__case", "snake_case"), ("___x", "_x"), ("tail_", "tail"), ("PIN:", "PIN:"), ("", ""),
    ])
  func strips(_ pair: (String, String)) {
    #expect(pair.0.strippingAcceleratorMarks == pair.1)
  }
}
