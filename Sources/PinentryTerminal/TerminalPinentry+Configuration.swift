package import Pinentry
package import SecretFieldTerminal
package import SecureMemory

extension TerminalPinentry {
  /// The prompt's configuration for one `GETPIN` entry: what `request` says to
  /// show, in the client's words, on the terminal at `terminalPath`.
  ///
  /// - The title and the description go above the prompt, the title first;
  ///   not again above a repetition, which follows them on the screen.
  /// - The error goes under the field until the first key.
  /// - The hint line names Tab with the client's reveal and hide texts
  ///   (`default-tt-visi`, `default-tt-hide`), Enter with the OK label and Esc
  ///   with the Cancel label; the caps-lock warning is `default-capshint`'s.
  /// - `invisible-char` becomes the mask glyph when it is one character.
  /// - Reveal refused in a recorded session says "passphrase"; the prompt
  ///   looks for a recorder itself when it starts.
  /// - ^Z does not stop anything (see ``TerminalPinentry``).
  ///
  /// Pure: reads nothing but its arguments.
  package static func promptConfiguration(
    for request: PinRequest, terminalPath: String, locale: TerminalLocale,
    storage: SecureStorage = .sealed
  ) -> PromptConfiguration {
    var configuration = PromptConfiguration(prompt: request.prompt)
    configuration.storage = storage
    // The repetition follows the entry right above it: its texts are on the
    // screen already.
    if request.stage != .repetition {
      configuration.description = Self.joinedLines(request.title, request.description)
    }
    configuration.initialMessage = request.error
    configuration.timeout = request.timeout
    configuration.terminalPath = terminalPath
    configuration.locale = locale
    configuration.allowsSuspend = false
    if let glyph = request.environment.invisibleCharacter, glyph.count == 1,
      let character = glyph.first
    {
      configuration.echo = .masked(glyph: character)
    }
    var texts = PromptTexts()
    texts.reveal = "Tab: " + request.texts.reveal
    texts.hide = "Tab: " + request.texts.hide
    texts.submit = "Enter: " + request.okLabel
    texts.cancel = "Esc: " + request.cancelLabel
    texts.capsLock = request.texts.capsLock
    texts.revealRefusedWhileCaptured =
      "The passphrase can't be shown while this session is recorded or shared."
    texts.revealRefusedBecause = "{reason}, so the passphrase can't be shown."
    configuration.texts = texts
    return configuration
  }

  /// The question for one `CONFIRM` or `MESSAGE`: the error, the title and
  /// the description above a row of buttons: OK, then not-OK when the client
  /// set one (`SETNOTOK`), then Cancel unless it is a message
  /// (`CONFIRM --one-button`, `MESSAGE`).
  ///
  /// Pure: reads nothing but its arguments.
  package static func confirmationPrompt(
    for request: ConfirmRequest, terminalPath: String, locale: TerminalLocale
  ) -> ConfirmationPrompt {
    let text = [request.error, request.title, request.description].compactMap { $0 }
      .joined(separator: "\n")
    var prompt = ConfirmationPrompt(question: text)
    var buttons = [ConfirmationButton(.yes, label: request.okLabel)]
    if let notOk = request.notOkLabel { buttons.append(ConfirmationButton(.no, label: notOk)) }
    if let cancel = request.cancelLabel {
      buttons.append(ConfirmationButton(.cancel, label: cancel))
    }
    prompt.buttons = buttons
    prompt.locale = locale
    prompt.timeout = request.timeout
    prompt.terminalPath = terminalPath
    return prompt
  }

  /// `first` and `second` on lines of their own, leaving out what is nil or
  /// empty; nil when both are.
  static func joinedLines(_ first: String?, _ second: String?) -> String? {
    let first = first.flatMap { $0.isEmpty ? nil : $0 }
    let second = second.flatMap { $0.isEmpty ? nil : $0 }
    guard let first else { return second }
    guard let second else { return first }
    return first + "\n" + second
  }
}
