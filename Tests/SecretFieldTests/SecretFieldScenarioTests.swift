import SecretField
import Testing

@Suite("The reveal toggle never touches the text, the caret or the selection")
struct SecretFieldScenarioTests {
  @Test("type abc visible, toggle to hidden, type d: the password is abcd, caret after d")
  func seedScenario() throws {
    var field = try makeField(mode: .visible)
    try field.insert("a")
    try field.insert("b")
    try field.insert("c")
    try field.toggleReveal()
    #expect(field.obfuscationMode == .hidden)
    try field.insert("d")
    #expect(field.string == "abcd")
    #expect(field.caret == 4)
    #expect(field.selection == 4..<4)
    let line = field.render(at: testEpoch)
    #expect(line.cells.count == 4)
    #expect(line.cells.allSatisfy { !$0.isRevealed })
  }

  @Test("toggling back and forth mid-text keeps text, caret, selection and its direction")
  func toggleMidText() throws {
    var field = try makeField("correct horse", policy: [])
    field.select(9..<9)
    // Extend leftwards, so the caret is the selection's lower end.
    for _ in 0..<3 { field.moveCaret(.left, extendingSelection: true) }
    #expect(field.selection == 6..<9)
    #expect(field.caret == 6)
    for round in 0..<4 {
      try field.toggleReveal()
      #expect(field.obfuscationMode == (round % 2 == 0 ? .visible : .hidden))
      #expect(field.string == "correct horse")
      #expect(field.selection == 6..<9)
      #expect(field.caret == 6)
      let line = field.render(at: testEpoch)
      #expect(line.selection == 6..<9)
      #expect(line.caret == 6)
      #expect(line.isRevealed == (round % 2 == 0))
    }
    // The next keystroke replaces the selection; it does not clear the field.
    try field.insert("X")
    #expect(field.string == "correcXorse")
    #expect(field.caret == 7)
  }

  @Test("a toggle from reveal-last-typed goes to visible and back to reveal-last-typed")
  func toggleFromRevealLastTyped() throws {
    var field = try makeField(mode: .revealLastTyped(.seconds(2)))
    try field.insert("pw")
    try field.toggleReveal()
    #expect(field.obfuscationMode == .visible)
    try field.toggleReveal()
    #expect(field.obfuscationMode == .revealLastTyped(.seconds(2)))
    #expect(field.string == "pw")
  }

  @Test("word moves and word deletion see words only while visible")
  func wordsOnlyWhileVisible() throws {
    var field = try makeField("one two three", mode: .visible)
    field.deleteWordBackward()
    #expect(field.string == "one two ")
    field.moveCaret(.wordLeft)
    #expect(field.caret == 4)
    field.moveCaret(.wordRight)
    #expect(field.caret == 7)
    try field.toggleReveal()
    field.moveCaret(.wordLeft)
    #expect(field.caret == 0, "masked: the whole content is one word")
    field.moveCaret(.wordRight)
    #expect(field.caret == 8)
    field.moveCaret(.left)
    field.deleteWordBackward()
    #expect(field.string == " ", "masked: deletes to the start, wherever the spaces are")
  }

  @Test("clear wipes the text and keeps the mode")
  func clear() throws {
    var field = try makeField("secret", mode: .visible)
    field.clear()
    #expect(field.bytes == [])
    #expect(field.count == 0)
    #expect(field.caret == 0)
    #expect(field.obfuscationMode == .visible)
    try field.insert("again")
    #expect(field.string == "again")
  }

  @Test("selecting past the end traps")
  func selectOutOfBoundsTraps() async {
    await #expect(processExitsWith: .failure) {
      var field = try! SecretFieldState()
      field.select(0..<1)
    }
  }
}
