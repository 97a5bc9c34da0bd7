public import SecretField
public import SecureMemory

/// Several fields on consecutive lines of the terminal, plain and secret, filled
/// in one go: the form of a login screen.
///
/// ```swift
/// let form = TerminalForm(fields: [
///   FormField(name: "user", label: "User:", kind: .plain(initialText: "alice")),
///   FormField(name: "password", label: "Password:", kind: .secret, minimumLength: 1),
/// ])
/// let answers = try form.run().answers()
/// let user = answers.texts["user"] ?? ""
/// ```
///
/// Keys: Tab and Down go to the next field, Shift-Tab and Up to the one before
/// (both wrap); Enter goes to the next field, and on the last one submits
/// (refused while a field is shorter than its ``FormField/minimumLength``,
/// or a new-password field's ``FormField/strength`` rules refuse its text,
/// with the reasons; that field then takes the focus); ``revealKey`` (Ctrl+R by default) reveals or
/// masks the secret field in focus; Esc and ^C cancel, and so does ^D on an
/// empty field. Every other key edits the field in focus as the password
/// prompt edits its own. Each field keeps its text, caret and reveal state
/// while another has the focus. The first empty field has the focus at first.
///
/// The screen, terminal modes and signals as ``PasswordPrompt``: raw mode,
/// bracketed paste and focus reporting, restored on every way out; losing the
/// terminal's focus masks every revealed field, and while a recorder is seen
/// on the session reveal is refused. When the form ends, every secret field is
/// drawn masked again and the cursor left under the form.
public struct TerminalForm: Sendable {
  /// The fields, top to bottom.
  public var fields: [FormField]
  /// Lines shown once above the form, or nil.
  public var description: String?
  /// The key that reveals or masks the secret field in focus.
  public var revealKey: KeyEvent = .key(.character("r"), .control)
  /// How long the form may wait; nil waits without limit.
  public var timeout: Duration?
  /// The terminal to ask on: the controlling terminal by default.
  public var terminalPath = TerminalDevice.controllingTerminalPath
  /// Which memory the secret fields and their answers are kept in: sealed
  /// by default (`SecureStorage.sealed`), so a root scan reads ciphertext.
  public var storage: SecureStorage = .sealed
  /// Look for a recorder of the session when the form starts.
  public var detectsRecording = true
  /// The texts the form shows on its own (messages, the hint).
  public var texts = PromptTexts()
  /// The terminal's character set; nil reads it from the environment.
  public var locale: TerminalLocale?

  /// A form of `fields`.
  ///
  /// - Precondition: `fields` is not empty and their names differ.
  public init(fields: [FormField]) {
    precondition(!fields.isEmpty, "TerminalForm needs at least one field")
    precondition(
      Set(fields.map(\.name)).count == fields.count, "TerminalForm: two fields have one name")
    self.fields = fields
  }

  /// Asks on ``terminalPath`` until the user submits or cancels, the timeout
  /// runs out, or the terminal goes away.
  ///
  /// - Throws: ``TerminalError`` as ``PasswordPrompt/run(annotatingEdits:afterFirstDraw:withdrawal:reusing:beforeRestoring:)``
  ///   throws it; the terminal is restored first. A fatal signal does not
  ///   return: the process dies by it.
  public func run() throws(TerminalError) -> EntryOutcome<FormAnswers> {
    let setup = TerminalSession.Setup(
      terminalPath: terminalPath, features: [.bracketedPaste, .focusReporting])
    return try TerminalSession.run(setup) { terminal, relay, decoder, _ throws(TerminalError) in
      var loop = try FormLoop(form: self, terminal: terminal)
      do throws(TerminalError) {
        return try loop.run(terminal: &terminal, relay: relay, decoder: &decoder)
      } catch {
        loop.abandon()
        throw error
      }
    }
  }
}
