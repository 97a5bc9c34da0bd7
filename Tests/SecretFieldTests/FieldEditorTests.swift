import SecretField
import SecureMemory
import Testing

/// What each editing command does, tested here once for every front end: the
/// terminal, the form and the window only map their keys to these commands.
struct EditorCase: CustomTestStringConvertible, Sendable {
  enum Step: Sendable {
    case type(String)
    case command(FieldCommand)
    case paste(String)
  }

  let name: String
  let steps: [Step]
  let text: String
  let caret: Int
  var testDescription: String { name }

  init(_ name: String, _ steps: [Step], _ text: String, caret: Int? = nil) {
    self.name = name
    self.steps = steps
    self.text = text
    self.caret = caret ?? text.count
  }
}

let editorCases: [EditorCase] = [
  EditorCase(
    "moves to the left, the end and the start insert where the caret is",
    [
      .type("abc"), .command(.move(.left)), .command(.move(.left)), .type("X"),
      .command(.move(.end)), .type("Y"), .command(.move(.start)), .type("Z"),
    ], "ZaXbcY", caret: 1),
  EditorCase(
    "delete back and forward in the middle",
    [
      .type("abcdef"), .command(.move(.left)), .command(.move(.left)),
      .command(.deleteBackward), .command(.move(.start)), .command(.move(.right)),
      .command(.deleteForward),
    ], "acef", caret: 1),
  EditorCase(
    "delete to the end",
    [.type("secret"), .command(.move(.left)), .command(.move(.left)), .command(.deleteToEnd)],
    "secr"),
  EditorCase(
    "delete to the start",
    [.type("secret"), .command(.move(.left)), .command(.move(.left)), .command(.deleteToStart)],
    "et", caret: 0),
  EditorCase(
    "delete a word while masked deletes to the start: word boundaries would show the spaces",
    [.type("two words"), .command(.deleteWordBackward)], ""),
  EditorCase(
    "delete a word while revealed deletes one word",
    [.command(.toggleReveal), .type("two words"), .command(.deleteWordBackward)], "two "),
  EditorCase(
    "the end-of-input key on text deletes forward",
    [.type("abc"), .command(.move(.start)), .command(.endOfInput)], "bc", caret: 0),
  EditorCase(
    "a selection is replaced by what is typed",
    [.type("abc"), .command(.selectAll), .type("x")], "x"),
  EditorCase(
    "a selection extended by moves is deleted whole",
    [
      .type("abcd"), .command(.move(.left)), .command(.move(.left, extendingSelection: true)),
      .command(.move(.left, extendingSelection: true)), .command(.deleteBackward),
    ], "ad", caret: 1),
  EditorCase(
    "multi-byte and multi-scalar characters are one character each",
    [
      .type("é"), .type("日本"), .type("e"), .type("\u{301}"), .type("👨‍👩‍👧"), .type("🇫🇷"),
      .command(.move(.left)), .command(.deleteBackward),
    ], "é日本e\u{301}🇫🇷", caret: 4),
  EditorCase(
    "a combining mark typed after a letter joins it",
    [.type("e"), .type("\u{301}"), .command(.deleteBackward)], ""),
  EditorCase(
    "a paste is one edit at the caret, its trailing newline dropped",
    [.type("ab"), .command(.move(.left)), .paste("xyz\n")], "axyzb", caret: 4),
  EditorCase("a trailing CR LF is dropped too", [.paste("xyz\r\n")], "xyz"),
  EditorCase(
    "a paste with a line break inside changes nothing", [.type("ab"), .paste("x\ny")], "ab"),
  EditorCase("a paste with a tab changes nothing", [.type("ab"), .paste("x\ty")], "ab"),
  EditorCase(
    "every cut is refused and keeps the text, the selection included",
    [.type("abc"), .command(.selectAll), .command(.cut)], "abc"),
  EditorCase(
    "copy and a paste from the clipboard change nothing",
    [.type("abc"), .command(.copy), .command(.pasteFromClipboard)], "abc"),
]

/// Runs `command` on `field` with the UTF-8 of `text` lent as its bytes.
@discardableResult
func perform(
  _ command: FieldCommand, on field: inout SecretFieldState, text: String = "",
  editor: FieldEditor = FieldEditor()
) -> FieldEditor.Reaction {
  Array(text.utf8).withUnsafeBytes { bytes in
    editor.perform(command, on: &field, text: bytes, at: testEpoch)
  }
}

@Suite("FieldEditor: what every editing command does, in every front end")
struct FieldEditorTests {
  @Test("editing", arguments: editorCases)
  func editing(_ testCase: EditorCase) throws {
    var field = try makeField()
    for step in testCase.steps {
      switch step {
      case .type(let text): perform(.insert, on: &field, text: text)
      case .command(let command): perform(command, on: &field)
      case .paste(let text): perform(.paste, on: &field, text: text)
      }
    }
    #expect(field.string == testCase.text)
    #expect(field.caret == testCase.caret)
  }

  @Test("submit and the cancels conclude the entry, each cancel named")
  func conclusions() throws {
    var field = try makeField()
    #expect(perform(.submit, on: &field).conclusion == .submit)
    #expect(perform(.cancel(.escape), on: &field).conclusion == .cancel(.escape))
    #expect(perform(.cancel(.interrupt), on: &field).conclusion == .cancel(.interrupt))
    #expect(perform(.endOfInput, on: &field).conclusion == .cancel(.endOfInput))
    perform(.insert, on: &field, text: "a")
    #expect(perform(.endOfInput, on: &field).conclusion == nil, "on text it deletes, not cancels")
  }

  @Test("a refused command says why and leaves the field exactly as it was")
  func refusals() throws {
    let editor = FieldEditor(minimumLength: 4)
    var field = try makeField("abc")
    perform(.move(.left), on: &field)
    perform(.move(.left, extendingSelection: true), on: &field)
    let before = field.snapshot
    let cases: [(FieldCommand, String, FieldRefusal)] = [
      (.submit, "", .tooShort(minimum: 4)),
      (.cut, "", .copyOrCutRefused),
      (.copy, "", .copyOrCutRefused),
      (.pasteFromClipboard, "", .clipboardNotRead),
      (.paste, "x\ny", .pasteWithLineBreak),
      (.paste, "x\u{7}y", .pasteWithControlCharacter),
      (.insert, "\u{1B}", .invalidText),
    ]
    for (command, text, refusal) in cases {
      let reaction = perform(command, on: &field, text: text, editor: editor)
      #expect(reaction.refusal == refusal, "\(command)")
      #expect(reaction.conclusion == nil && reaction.editedFrom == nil, "\(command)")
      #expect(field.snapshot == before, "\(command) changed the field")
    }
    let invalid: [UInt8] = [0x61, 0xFF]
    let reaction = invalid.withUnsafeBytes {
      editor.perform(.insert, on: &field, text: $0, at: testEpoch)
    }
    #expect(reaction.refusal == .invalidText)
    #expect(field.snapshot == before)
  }

  @Test("text past the field's limits is refused: typed, the field is full; pasted, too long")
  func limits() throws {
    var limits = FieldLimits.default
    limits.maxCharacters = 3
    var field = try makeField("ab", limits: limits)
    #expect(perform(.paste, on: &field, text: "xyz").refusal == .pasteTooLong)
    perform(.insert, on: &field, text: "c")
    #expect(perform(.insert, on: &field, text: "d").refusal == .fieldFull)
    #expect(field.string == "abc")
  }

  @Test("a reveal keeps the text and the caret; refused while captured, or where none is offered")
  func reveal() throws {
    var field = try makeField("abcd")
    perform(.move(.left), on: &field)
    #expect(perform(.toggleReveal, on: &field).refusal == nil)
    #expect(field.obfuscationMode == .visible && field.caret == 3 && field.string == "abcd")
    perform(.toggleReveal, on: &field)
    #expect(field.obfuscationMode.isMasked && field.caret == 3)
    field.isCaptured = true
    #expect(perform(.toggleReveal, on: &field).refusal == .revealRefused)
    #expect(field.obfuscationMode.isMasked)
    field.isCaptured = false
    let noReveal = FieldEditor(offersReveal: false)
    #expect(perform(.toggleReveal, on: &field, editor: noReveal).refusal == .revealUnavailable)
    #expect(field.obfuscationMode.isMasked)
  }

  @Test("an edit says from which character it may have changed the text")
  func editedFrom() throws {
    var field = try makeField()
    #expect(perform(.insert, on: &field, text: "abcd").editedFrom == 0)
    #expect(
      perform(.insert, on: &field, text: "e").editedFrom == 3,
      "typing at the end may join the character before")
    perform(.move(.left), on: &field)
    perform(.move(.left), on: &field)
    #expect(perform(.move(.left), on: &field).editedFrom == nil, "a move changes no text")
    #expect(perform(.deleteBackward, on: &field).editedFrom == 0)
    #expect(perform(.deleteToEnd, on: &field).editedFrom == 0)
  }
}
