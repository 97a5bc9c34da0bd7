import SecretField
import SecretFieldTerminal
import Testing

/// One editing scenario: events in, the text and caret out.
struct EditingCase: CustomTestStringConvertible, Sendable {
  enum Step: Sendable {
    case type(String)
    case key(KeyEvent)
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

let editingCases: [EditingCase] = [
  EditingCase(
    "arrows, Home and End insert where the caret is",
    [
      .type("abc"), .key(.moveLeft), .key(.moveLeft), .type("X"), .key(.moveToEnd), .type("Y"),
      .key(.moveToStart), .type("Z"),
    ], "ZaXbcY", caret: 1),
  EditingCase(
    "Backspace and Delete in the middle",
    [
      .type("abcdef"), .key(.moveLeft), .key(.moveLeft), .key(.deleteBackward),
      .key(.moveToStart), .key(.moveRight), .key(.deleteForward),
    ], "acef", caret: 1),
  EditingCase(
    "^K deletes to the end",
    [.type("secret"), .key(.moveLeft), .key(.moveLeft), .key(.deleteToEnd)],
    "secr"),
  EditingCase(
    "^U deletes to the start",
    [.type("secret"), .key(.moveLeft), .key(.moveLeft), .key(.deleteToStart)], "et", caret: 0),
  EditingCase(
    "^W while masked deletes to the start: word boundaries would show the spaces",
    [.type("two words"), .key(.deleteWordBackward)], ""),
  EditingCase(
    "^W while revealed deletes one word",
    [.key(.tab), .type("two words"), .key(.deleteWordBackward)], "two "),
  EditingCase(
    "^D on text deletes forward", [.type("abc"), .key(.moveToStart), .key(.endOfInput)], "bc",
    caret: 0),
  EditingCase(
    "multi-byte and multi-scalar characters are one character each",
    [
      .type("é"), .type("日本"), .type("e"), .type("\u{301}"), .type("👨‍👩‍👧"), .type("🇫🇷"),
      .key(.moveLeft), .key(.deleteBackward),
    ], "é日本e\u{301}🇫🇷", caret: 4),
  EditingCase(
    "a combining mark typed after a letter joins it",
    [.type("e"), .type("\u{301}"), .key(.deleteBackward)], ""),
  EditingCase(
    "unknown sequences change nothing",
    [.type("ab"), .key(.unknownSequence), .key(.unknownSequence), .type("c")], "abc"),
  EditingCase(
    "a paste is one edit at the caret, its trailing newline dropped",
    [.type("ab"), .key(.moveLeft), .paste("xyz\n")], "axyzb", caret: 4),
  EditingCase(
    "a trailing CR LF is dropped too", [.paste("xyz\r\n")], "xyz"),
  EditingCase(
    "a paste with a line break inside changes nothing",
    [.type("ab"), .paste("x\ny")], "ab"),
  EditingCase(
    "a paste with a tab changes nothing", [.type("ab"), .paste("x\ty")], "ab"),
  EditingCase(
    "text that is not UTF-8 changes nothing", [.type("ab"), .key(.invalidText)], "ab"),
]

@Suite("PromptEditor turns key events into edits on the field")
struct PromptEditorTests {
  @Test("editing", arguments: editingCases)
  func editing(_ testCase: EditingCase) throws {
    var driver = try PromptDriver()
    for step in testCase.steps {
      switch step {
      case .type(let text): driver.type(text)
      case .key(let event): driver.handle(event)
      case .paste(let text): driver.paste(text)
      }
    }
    #expect(driver.text == testCase.text)
    #expect(driver.caret == testCase.caret)
  }

  @Test("Enter submits; Esc, ^C and ^D on an empty field cancel, each named")
  func endings() throws {
    var driver = try PromptDriver()
    #expect(driver.handle(.submit).outcome == .submit)
    #expect(driver.handle(.escape).outcome == .cancel(.escape))
    #expect(driver.handle(.cancel).outcome == .cancel(.interrupt))
    #expect(driver.handle(.endOfInput).outcome == .cancel(.endOfInput))
    #expect(driver.handle(.suspend).outcome == .suspend)
    driver.type("a")
    #expect(driver.handle(.endOfInput).outcome == nil, "^D on text does not cancel")
  }

  @Test("a refused key rings the bell, says why, and leaves the field as it was")
  func refusals() throws {
    var configuration = PromptConfiguration()
    configuration.minimumLength = 4
    var driver = try PromptDriver(configuration)
    driver.type("abc")
    let short = driver.handle(.submit)
    #expect(short.outcome == nil && short.ringsBell)
    #expect(driver.editor.message == "Too short: use at least 4 characters.")
    #expect(driver.text == "abc")
    let paste = driver.paste("x\ny")
    #expect(paste.ringsBell && paste.editedFrom == nil)
    #expect(driver.editor.message == configuration.texts.pasteWithLineBreak)
    let invalid = driver.handle(.invalidText)
    #expect(invalid.ringsBell)
    #expect(driver.editor.message == configuration.texts.invalidText)
    #expect(driver.text == "abc")
    driver.handle(.unknownSequence)
    #expect(driver.editor.message != nil, "an unknown sequence is not a key the user meant")
    driver.type("d")
    #expect(driver.editor.message == nil, "the next key ends the message")
    #expect(driver.handle(.submit).outcome == .submit)
  }

  @Test("a paste longer than the field takes is refused whole")
  func pasteTooLong() throws {
    var configuration = PromptConfiguration()
    configuration.fieldLimits = FieldLimits(maxCharacters: 4)
    var driver = try PromptDriver(configuration)
    driver.type("ab")
    #expect(driver.paste("xyz").ringsBell)
    #expect(driver.editor.message == configuration.texts.pasteTooLong)
    #expect(driver.text == "ab")
    #expect(driver.handle(.pasteTooLong).ringsBell)
  }

  @Test("Tab toggles the reveal and keeps the caret; without reveal it only rings")
  func reveal() throws {
    var driver = try PromptDriver()
    driver.type("secret")
    driver.handle(.moveLeft)
    driver.handle(.tab)
    #expect(driver.editor.field.obfuscationMode == .visible)
    #expect(driver.caret == 5)
    driver.handle(.tab)
    #expect(driver.editor.field.obfuscationMode == .hidden)
    #expect(driver.caret == 5)

    var configuration = PromptConfiguration()
    configuration.allowsReveal = false
    var noReveal = try PromptDriver(configuration)
    noReveal.type("secret")
    #expect(noReveal.handle(.tab).ringsBell)
    #expect(noReveal.editor.field.obfuscationMode == .hidden)

    configuration = PromptConfiguration()
    configuration.echo = .silent
    var silent = try PromptDriver(configuration)
    #expect(silent.handle(.tab).ringsBell)
  }

  @Test("while captured, Tab is refused with a message; focus loss re-masks")
  func capturedAndFocus() throws {
    var configuration = PromptConfiguration()
    configuration.isCaptured = true
    var captured = try PromptDriver(configuration)
    captured.type("secret")
    #expect(captured.handle(.tab).ringsBell)
    #expect(captured.editor.message == configuration.texts.revealRefusedWhileCaptured)
    #expect(captured.editor.field.obfuscationMode == .hidden)

    var driver = try PromptDriver()
    driver.type("secret")
    driver.handle(.tab)
    driver.handle(.focusOut)
    #expect(driver.editor.field.obfuscationMode == .hidden)
    driver.handle(.focusIn)
    let isFocused = driver.editor.field.isFocused
    #expect(isFocused)
    driver.handle(.tab)
    #expect(driver.editor.field.obfuscationMode == .visible)
    driver.setCaptured()
    #expect(driver.editor.field.obfuscationMode == .hidden, "capture ends a reveal at once")
  }

  @Test("captured with a reason: the refusal says why, in the texts' words")
  func captureReason() throws {
    var configuration = PromptConfiguration()
    configuration.isCaptured = true
    configuration.captureReason = "asciinema is recording this terminal"
    var driver = try PromptDriver(configuration)
    driver.type("secret")
    #expect(driver.handle(.tab).ringsBell)
    #expect(
      driver.editor.message
        == "asciinema is recording this terminal, so the password can't be shown.")

    configuration.texts.revealRefusedBecause = "Nicht sichtbar: {reason}."
    var translated = try PromptDriver(configuration)
    translated.handle(.tab)
    #expect(translated.editor.message == "Nicht sichtbar: asciinema is recording this terminal.")

    // A reason without capture is not shown: nothing is refused.
    configuration.isCaptured = false
    var free = try PromptDriver(configuration)
    #expect(!free.handle(.tab).ringsBell)
    #expect(free.editor.message == nil)
    free.editor.setCaptured(true, reason: "tmux is copying this terminal's output (pipe-pane)")
    free.handle(.tab)
    #expect(
      free.editor.message == "Nicht sichtbar: tmux is copying this terminal's output (pipe-pane).")
  }

  @Test("caps lock shows a warning line while on and focused")
  func capsLock() throws {
    var driver = try PromptDriver()
    driver.handle(.capsLock(isOn: true))
    var line = driver.editor.field.render(at: driver.now)
    #expect(driver.editor.statusLines(for: line).map(\.text).contains("Caps Lock is on"))
    driver.handle(.capsLock(isOn: false))
    line = driver.editor.field.render(at: driver.now)
    #expect(!driver.editor.statusLines(for: line).map(\.text).contains("Caps Lock is on"))
  }

  @Test("terminal replies are handed on and change nothing")
  func terminalReplies() throws {
    var driver = try PromptDriver()
    driver.type("ab")
    #expect(driver.handle(.deviceAttributes).terminalReply == .deviceAttributes)
    #expect(driver.handle(.keyboardFlags([.disambiguate])).terminalReply != nil)
    #expect(driver.text == "ab")
  }

  @Test("the hint names the keys: show or hide, OK, cancel")
  func hint() throws {
    var driver = try PromptDriver()
    var line = driver.editor.field.render(at: driver.now)
    #expect(driver.editor.statusLines(for: line).last?.text == "Tab show · Enter OK · Esc cancel")
    driver.handle(.tab)
    line = driver.editor.field.render(at: driver.now)
    #expect(driver.editor.statusLines(for: line).last?.text == "Tab hide · Enter OK · Esc cancel")

    var configuration = PromptConfiguration()
    configuration.echo = .silent
    let silent = try PromptDriver(configuration, locale: TerminalLocale(environment: [:]))
    line = silent.editor.field.render(at: silent.now)
    #expect(
      silent.editor.statusLines(for: line).last?.text
        == "typing is not shown | Enter OK | Esc cancel")
  }

  @Test("an edit says from which character it may have changed the text")
  func editedFrom() throws {
    var driver = try PromptDriver()
    #expect(driver.type("abcd").editedFrom == 0)
    #expect(driver.type("e").editedFrom == 3, "typing at the end may join the character before")
    driver.handle(.moveLeft)
    driver.handle(.moveLeft)
    #expect(driver.handle(.moveLeft).editedFrom == nil, "a move changes no text")
    #expect(driver.handle(.deleteBackward).editedFrom == 0)
    #expect(driver.handle(.deleteToEnd).editedFrom == 0)
  }
}

extension PromptDriver {
  /// Captures the session while revealed: the field masks at once.
  mutating func setCaptured() {
    editor.setCaptured(true)
  }
}
