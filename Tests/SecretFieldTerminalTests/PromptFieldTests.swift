import SecretField
import SecretFieldTerminal
import Testing

/// A terminal key event and the editor's command it sends.
struct KeyMapping: CustomTestStringConvertible, Sendable {
  let event: KeyEvent
  let command: FieldCommand?
  var testDescription: String { "\(event) → \(command.map { "\($0)" } ?? "nothing")" }

  init(_ event: KeyEvent, _ command: FieldCommand?) {
    self.event = event
    self.command = command
  }
}

/// The terminal's table: what the decoder named goes to its command; a named
/// key goes through the bindings every front end shares.
let keyMappings: [KeyMapping] = [
  KeyMapping(.text, .insert), KeyMapping(.paste, .paste), KeyMapping(.submit, .submit),
  KeyMapping(.cancel, .cancel(.interrupt)), KeyMapping(.escape, .cancel(.escape)),
  KeyMapping(.endOfInput, .endOfInput), KeyMapping(.tab, .toggleReveal),
  KeyMapping(.deleteBackward, .deleteBackward), KeyMapping(.deleteForward, .deleteForward),
  KeyMapping(.deleteToStart, .deleteToStart), KeyMapping(.deleteToEnd, .deleteToEnd),
  KeyMapping(.deleteWordBackward, .deleteWordBackward),
  KeyMapping(.moveLeft, .move(.left)), KeyMapping(.moveRight, .move(.right)),
  KeyMapping(.moveWordLeft, .move(.wordLeft)), KeyMapping(.moveWordRight, .move(.wordRight)),
  KeyMapping(.moveToStart, .move(.start)), KeyMapping(.moveToEnd, .move(.end)),
  KeyMapping(.key(.delete, .shift), .cut), KeyMapping(.key(.character("x"), .control), .cut),
  KeyMapping(.key(.left, .shift), .move(.left, extendingSelection: true)),
  KeyMapping(.key(.tab, .shift), nil), KeyMapping(.key(.function(2), []), nil),
  KeyMapping(.suspend, nil), KeyMapping(.redraw, nil), KeyMapping(.focusIn, nil),
  KeyMapping(.unknownSequence, nil), KeyMapping(.pasteTooLong, nil),
]

@Suite("PromptField turns key events into edits on the field")
struct PromptFieldTests {
  @Test("each terminal key sends its command to the field's editor", arguments: keyMappings)
  func mapping(_ mapping: KeyMapping) {
    #expect(mapping.event.fieldCommand == mapping.command)
  }

  @Test("Shift+Delete after typing is a cut: refused, the text kept, the reason shown")
  func cutKeepsTheText() throws {
    var driver = try PromptDriver()
    driver.type("hunter2")
    driver.handle(.moveToStart)
    driver.handle(.key(.end, .shift))
    let cut = driver.handle(.key(.delete, .shift))
    #expect(cut.ringsBell && cut.editedFrom == nil)
    #expect(driver.text == "hunter2")
    #expect(driver.editor.message == "A password can't be copied or cut.")
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
