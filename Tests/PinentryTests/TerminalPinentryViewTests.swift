import Pinentry
import SecretField
import PinentryTerminal
import SecretFieldCLI
import SecretFieldTerminal
import Testing

private let utf8 = TerminalLocale(environment: ["LC_ALL": "C.UTF-8"])
private let ascii = TerminalLocale(environment: ["LC_ALL": "C"])

/// The request gpg-agent makes for a signing key: its texts, after the
/// session has stripped the accelerator marks.
private func agentRequest() -> PinRequest {
  var settings = PinentrySettings()
  for option in [
    "default-ok=_Bestätigen", "default-cancel=_Abbrechen", "default-tt-visi=Passphrase _zeigen",
    "default-tt-hide=Passphrase _verbergen", "default-capshint=Fest_stelltaste ist an",
  ] {
    try! settings.applyOption(option)
  }
  settings.title = "pinentry"
  settings.description = "Bitte geben Sie die Passphrase ein\nfür den Schlüssel ABC"
  settings.prompt = "_Passphrase:"
  settings.error = "Falsche Passphrase (Versuch 2 von 3)"
  settings.timeout = .seconds(30)
  return settings.pinRequest(stage: .passphrase, error: settings.error)
}

@Suite("TerminalPinentry: what a GETPIN shows, from what the client set")
struct TerminalPinentryConfigurationTests {
  @Test("the client's texts reach the prompt: prompt, description, error, timeout, hint, caps lock")
  func clientTexts() {
    let configuration = TerminalPinentry.promptConfiguration(
      for: agentRequest(), terminalPath: "/dev/pts/7", locale: utf8)
    #expect(configuration.prompt == "Passphrase:")
    #expect(
      configuration.description
        == "pinentry\nBitte geben Sie die Passphrase ein\nfür den Schlüssel ABC")
    #expect(configuration.initialMessage == "Falsche Passphrase (Versuch 2 von 3)")
    #expect(configuration.timeout == .seconds(30))
    #expect(configuration.terminalPath == "/dev/pts/7")
    #expect(configuration.texts.reveal == "Tab: Passphrase zeigen")
    #expect(configuration.texts.hide == "Tab: Passphrase verbergen")
    #expect(configuration.texts.submit == "Enter: Bestätigen")
    #expect(configuration.texts.cancel == "Esc: Abbrechen")
    #expect(configuration.texts.capsLock == "Feststelltaste ist an")
    #expect(!configuration.allowsSuspend, "^Z must not stop gpg-agent's process group")
    #expect(configuration.allowsReveal && !configuration.isCaptured)
  }

  @Test("SETOK and SETCANCEL win over the defaults in the hint; our own defaults without either")
  func labels() {
    var request = agentRequest()
    request.okLabel = "Unlock"
    request.cancelLabel = "Not now"
    let configuration = TerminalPinentry.promptConfiguration(
      for: request, terminalPath: "/dev/tty", locale: utf8)
    #expect(configuration.texts.submit == "Enter: Unlock")
    #expect(configuration.texts.cancel == "Esc: Not now")
    let plain = TerminalPinentry.promptConfiguration(
      for: PinRequest(), terminalPath: "/dev/tty", locale: utf8)
    #expect(plain.texts.submit == "Enter: OK" && plain.texts.cancel == "Esc: Cancel")
    #expect(plain.texts.reveal == "Tab: Make passphrase visible")
    #expect(plain.texts.capsLock == "Caps Lock is on")
    #expect(plain.description == nil && plain.initialMessage == nil && plain.timeout == nil)
  }

  @Test("the repetition shows no description again: it follows the entry that showed it")
  func repetitionWithoutDescription() {
    var settings = PinentrySettings()
    settings.description = "Enter passphrase"
    settings.repeatPrompt = "Repeat:"
    let first = TerminalPinentry.promptConfiguration(
      for: settings.pinRequest(stage: .passphrase, error: nil), terminalPath: "/dev/tty",
      locale: utf8)
    let second = TerminalPinentry.promptConfiguration(
      for: settings.pinRequest(stage: .repetition, error: nil), terminalPath: "/dev/tty",
      locale: utf8)
    #expect(first.description == "Enter passphrase")
    #expect(second.description == nil && second.prompt == "Repeat:")
  }

  @Test("invisible-char of one character masks with it; anything longer is ignored")
  func invisibleCharacter() {
    var request = PinRequest()
    request.environment.invisibleCharacter = "*"
    #expect(
      TerminalPinentry.promptConfiguration(for: request, terminalPath: "/dev/tty", locale: utf8)
        .echo == .masked(glyph: "*"))
    request.environment.invisibleCharacter = "**"
    #expect(
      TerminalPinentry.promptConfiguration(for: request, terminalPath: "/dev/tty", locale: utf8)
        .echo == .masked(glyph: nil))
  }

  @Test("a recorded session refuses reveal in the pinentry's words; the prompt looks for itself")
  func recordedSession() {
    let configuration = TerminalPinentry.promptConfiguration(
      for: PinRequest(), terminalPath: "/dev/tty", locale: utf8)
    #expect(configuration.detectsRecording && !configuration.isCaptured)
    #expect(
      configuration.texts.revealRefusedMessage(reason: "asciinema is recording this terminal")
        == "asciinema is recording this terminal, so the passphrase can't be shown.")
    #expect(configuration.texts.revealRefusedWhileCaptured.contains("passphrase"))
  }
}

@Suite("QualityMeter: the agent's estimate as a bar")
struct QualityMeterTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let score: Int?
    let isUTF8: Bool
    let line: String
    var testDescription: String { "\(score.map(String.init) ?? "nil") → \(line)" }
  }

  @Test(
    "score to line",
    arguments: [
      Case(score: 0, isUTF8: true, line: "Quality: [░░░░░░░░░░░░░░░░░░░░]   0%"),
      Case(score: 30, isUTF8: true, line: "Quality: [██████░░░░░░░░░░░░░░]  30%"),
      Case(score: -30, isUTF8: true, line: "Quality: [██████░░░░░░░░░░░░░░] -30%"),
      Case(score: 100, isUTF8: true, line: "Quality: [████████████████████] 100%"),
      Case(score: -100, isUTF8: true, line: "Quality: [████████████████████] -100%"),
      Case(score: 250, isUTF8: true, line: "Quality: [████████████████████] 100%"),
      Case(score: 57, isUTF8: false, line: "Quality: [###########---------]  57%"),
      Case(score: nil, isUTF8: false, line: "Quality: [--------------------]    ?"),
    ])
  func line(_ example: Case) {
    #expect(
      QualityMeter(label: "Quality:", isUTF8: example.isUTF8).line(score: example.score)
        == example.line)
  }
}

@Suite("ConfirmationPrompt's buttons: keys and answers of CONFIRM and MESSAGE")
struct ConfirmationButtonTests {
  /// The button row the pinentry asks `request` with.
  private func row(_ request: ConfirmRequest, _ locale: TerminalLocale) -> ConfirmationButtonRow {
    let prompt = TerminalPinentry.confirmationPrompt(
      for: request, terminalPath: "/dev/null", locale: locale)
    return ConfirmationButtonRow(text: prompt.question, buttons: prompt.buttons, locale: locale)
  }

  private func request(notOk: String? = nil, oneButton: Bool = false) -> ConfirmRequest {
    var settings = PinentrySettings()
    settings.error = "Careful"
    settings.description = "Do you trust\nthis key?"
    settings.okLabel = "_Yes"
    settings.notOkLabel = notOk
    return settings.confirmRequest(oneButton: oneButton)
  }

  @Test("the texts above the buttons, the buttons in order, and the hint")
  func layout() {
    let state = row(request(notOk: "_No"), utf8)
    #expect(state.textLines == ["Careful", "Do you trust", "this key?"])
    #expect(state.buttons.map(\.role) == [.yes, .no, .cancel])
    #expect(state.buttons.map(\.label) == ["Yes", "No", "Cancel"])
    #expect(state.hint == "Tab ← →: choose · Enter: select · Esc: Cancel")
    #expect(
      state.buttonLine(columns: 80) == "\u{1B}[7m[ Yes ]\u{1B}[0m   No     Cancel  ")
    let message = row(request(oneButton: true), ascii)
    #expect(message.buttons.map(\.role) == [.yes])
    #expect(message.hint == "Enter: Yes")
  }

  struct KeyCase: CustomTestStringConvertible, Sendable {
    let name: String
    let keys: [KeyEvent]
    let outcome: EntryOutcome<Void>
    var testDescription: String { name }
  }

  @Test(
    "keys to answers",
    arguments: [
      KeyCase(name: "Enter: OK", keys: [.submit], outcome: .yes),
      KeyCase(name: "Tab Enter: not OK", keys: [.tab, .submit], outcome: .ended(.declined)),
      KeyCase(
        name: "Right Right Enter: Cancel", keys: [.moveRight, .moveRight, .submit],
        outcome: .ended(.cancelled(.button))),
      KeyCase(name: "Tab ×3 wraps to OK", keys: [.tab, .tab, .tab, .submit], outcome: .yes),
      KeyCase(
        name: "Left wraps to Cancel", keys: [.moveLeft, .submit],
        outcome: .ended(.cancelled(.button))),
      KeyCase(name: "Esc: cancel", keys: [.tab, .escape], outcome: .ended(.cancelled(.escape))),
      KeyCase(name: "^D: cancel", keys: [.endOfInput], outcome: .ended(.cancelled(.endOfInput))),
      KeyCase(
        name: "^C: full cancel", keys: [.tab, .cancel], outcome: .ended(.cancelled(.interrupt))),
      KeyCase(
        name: "text and unknown keys change nothing",
        keys: [.text, .unknownSequence, .deleteBackward, .submit], outcome: .yes),
    ])
  func keys(_ example: KeyCase) {
    var state = row(request(notOk: "_No"), utf8)
    var outcome: EntryOutcome<Void>?
    for key in example.keys {
      if case .end(let end) = state.handle(key) {
        outcome = end
        break
      }
    }
    #expect(outcome == example.outcome)
  }

  @Test("after Enter, the pressed button is drawn in brackets without highlight")
  func pressedLine() {
    var state = row(request(notOk: "_No"), utf8)
    _ = state.handle(.tab)
    _ = state.handle(.submit)
    #expect(state.buttonLine(columns: 80, isActive: false) == "  Yes   [ No ]   Cancel  ")
  }

  @Test("control characters in the client's texts are shown as ?, never sent to the terminal")
  func sanitized() {
    var settings = PinentrySettings()
    settings.description = "evil\u{1B}[2Jtext"
    settings.okLabel = "O\u{07}K"
    let state = row(settings.confirmRequest(oneButton: true), utf8)
    #expect(state.textLines == ["evil?[2Jtext"])
    #expect(state.buttons[0].label == "O?K")
  }

  @Test("long labels are shortened so the button line never wraps")
  func longLabels() {
    var settings = PinentrySettings()
    settings.okLabel = String(repeating: "a", count: 60)
    settings.cancelLabel = String(repeating: "b", count: 60)
    let state = row(settings.confirmRequest(oneButton: false), utf8)
    let line = state.buttonLine(columns: 40, isActive: false)
    #expect(line.count <= 39, "\(line.count): \(line)")
  }
}
