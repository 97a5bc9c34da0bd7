import SecretField
import SecureMemory
import Testing

/// Every edit of the field costs one protection pair on its text, whether it is
/// planned from the index alone (ASCII typed at the end) or from the bytes
/// around it (an edit in the middle, a letter after an accent), counted by the
/// `ProtectionChangeCount` seam in a child process of its own.
@Suite("SecretFieldState: one protection pair per edit")
struct SecretFieldProtectionCountTests {
  struct EditCase: Sendable {
    let name: String
    let text: String
    let caret: Int
    let typed: String?
    let expected: String
  }

  static let cases: [EditCase] = [
    EditCase(name: "ASCII at the end", text: "abcd", caret: 4, typed: "e", expected: "abcde"),
    EditCase(name: "ASCII in the middle", text: "abcd", caret: 2, typed: "x", expected: "abxcd"),
    EditCase(name: "an accent at the end", text: "abcd", caret: 4, typed: "é", expected: "abcdé"),
    EditCase(
      name: "a combining mark joining the letter before", text: "abcd", caret: 2,
      typed: "\u{301}", expected: "ab\u{301}cd"),
    EditCase(
      name: "a backspace in the middle", text: "abcd", caret: 2, typed: nil, expected: "acd"),
    EditCase(name: "a backspace at the end", text: "abé", caret: 3, typed: nil, expected: "ab"),
  ]

  @Test("each edit, at the end or in the middle, makes two protection changes")
  func onePair() async {
    await #expect(processExitsWith: .success) {
      for testCase in SecretFieldProtectionCountTests.cases {
        var field = try! SecretFieldState(storage: .sodium)
        try! field.insert(testCase.text)
        field.select(testCase.caret..<testCase.caret)
        let before = ProtectionChangeCount.current
        if let typed = testCase.typed {
          try! field.insert(typed)
        } else {
          field.deleteBackward()
        }
        let changes = ProtectionChangeCount.current - before
        #expect(changes == 2, "\(testCase.name)")
        let text = field.withSecret { String(decoding: $0, as: UTF8.self) }
        #expect(text == testCase.expected, "\(testCase.name)")
      }
    }
  }

  @Test("an edit in the middle refused at the character limit changes nothing")
  func refusedInTheMiddle() throws {
    var field = try SecretFieldState(limits: FieldLimits(maxCharacters: 4), storage: .sodium)
    try field.insert("abcd")
    field.select(2..<2)
    #expect(throws: FieldError.self) { try field.insert("é") }
    #expect(field.count == 4)
    #expect(field.caret == 2)
    #expect(field.withSecret { String(decoding: $0, as: UTF8.self) } == "abcd")
  }
}
