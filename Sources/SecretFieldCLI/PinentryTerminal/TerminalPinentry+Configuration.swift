package import Pinentry
package import SecretFieldTerminal

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
    for request: PinRequest, terminalPath: String, locale: TerminalLocale
  ) -> PromptConfiguration {
    var configuration = PromptConfiguration(prompt: request.prompt)
    configuration.storage = ToolMemory.storage
    // The repetition follows the entry right above it: its texts are on the
    // screen already.
    let above =
      request.stage == .repetition
      ? [] : [request.title, request.description].compactMap { $0 }.filter { !$0.isEmpty }
    configuration.description = above.isEmpty ? nil : above.joined(separator: "\n")
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
}
