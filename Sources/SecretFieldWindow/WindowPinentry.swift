internal import Glibc
package import Pinentry
import SystemCalls
package import PinentryTerminal
package import SecretField
package import SecureMemory

/// The pinentry's user interface in a window: `GETPIN`, `CONFIRM` and
/// `MESSAGE` in a ``PasswordDialog`` when there is a display, on the terminal
/// (``TerminalPinentry``, as `pinentry-secretfield` asks) when there is none.
///
/// The display is the one the client named (`OPTION display`, which gpg-agent
/// sends from its client's `DISPLAY`), else the process's own `DISPLAY` or
/// `WAYLAND_DISPLAY`, as pinentry-gnome3 decides. When GTK cannot open it, the
/// request and every later one go to the terminal.
///
/// A dialog ends as a cancel when nobody reads the answers any more (the
/// client went away), as the terminal's watch ends a prompt.
///
/// The passphrase goes from the field's secure buffer into a new secure
/// buffer the session writes the `D` line from; no `String` or array holds it.
/// The client's texts (`SETDESC`, `SETERROR`, ...) are shown as plain text,
/// never read as markup; its button labels are shown as given, `_` included.
package struct WindowPinentry: PinentryInterface {
  /// What asks when there is no display, or GTK cannot open it.
  package var terminal: TerminalPinentry
  /// The display of the process's environment, used when the client names
  /// none.
  package var environmentDisplay: String?
  /// Set once GTK failed to open a display: the window is not tried again.
  private var windowFailed = false

  /// The title when the client sets none (`SETTITLE`).
  package static let defaultTitle = "secretfield pinentry"

  /// An interface that falls back to `terminal`, with `environmentDisplay`
  /// (`DISPLAY`, else `WAYLAND_DISPLAY`) when the client names no display.
  package init(terminal: consuming TerminalPinentry, environmentDisplay: String?) {
    self.terminal = terminal
    self.environmentDisplay = environmentDisplay
  }

  package mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer> {
    guard opensWindow(for: request.environment) else {
      return try terminal.getPin(request, quality: quality)
    }
    var texts = DialogTexts(title: request.title ?? Self.defaultTitle, prompt: request.prompt)
    texts.description = request.description
    texts.error = request.error
    texts.okLabel = Self.literalLabel(request.okLabel)
    texts.cancelLabel = Self.literalLabel(request.cancelLabel)
    if quality != nil { texts.qualityBarLabel = request.qualityBar?.label }
    let dialog: PasswordDialog
    do {
      // A new passphrase (gpg-agent asks for the quality bar then): judged
      // here too, its reasons shown under the agent's bar, which the agent
      // still fills (INQUIRE QUALITY). The agent keeps the decision.
      dialog = try PasswordDialog(
        kind: .password, texts: texts, storage: terminal.storage,
        strength: texts.qualityBarLabel != nil ? StrengthRules() : nil)
    } catch {
      throw .general(error.description)
    }
    dialog.endsWhenReaderGone = terminal.clientOutput
    if request.qualityBar != nil, let quality {
      let storage = terminal.storage
      dialog.estimateQuality = { dialog in
        // The client's round trip, in the dialog's loop: a few milliseconds
        // from gpg-agent; a client that does not answer is given up on.
        guard let passphrase = try? dialog.answer(storage: storage) else { return nil }
        return quality.estimate(passphrase, until: .now + .seconds(2))
      }
    }
    let outcome: EntryOutcome<Void>
    do {
      outcome = try dialog.run(timeout: request.timeout)
    } catch {
      fallBack(because: error)
      return try terminal.getPin(request, quality: quality)
    }
    if let ending = outcome.ending { return .ended(ending) }
    do {
      return .submitted(try dialog.answer(storage: terminal.storage))
    } catch {
      throw .general(error.description)
    }
  }

  package mutating func confirm(
    _ request: ConfirmRequest
  ) throws(AssuanError) -> EntryOutcome<Void> {
    guard opensWindow(for: request.environment) else { return try terminal.confirm(request) }
    let kind: PasswordDialog.Kind = request.isMessage ? .message : .confirmation
    var texts = DialogTexts(
      title: request.title ?? Self.defaultTitle, prompt: request.description ?? "")
    texts.error = request.error
    texts.okLabel = Self.literalLabel(request.okLabel)
    texts.cancelLabel = Self.literalLabel(request.cancelLabel ?? request.texts.cancel)
    texts.notOkLabel = request.notOkLabel.map(Self.literalLabel)
    let dialog: PasswordDialog
    do {
      dialog = try PasswordDialog(kind: kind, texts: texts, storage: terminal.storage)
    } catch {
      throw .general(error.description)
    }
    dialog.endsWhenReaderGone = terminal.clientOutput
    do {
      return try dialog.run(timeout: request.timeout)
    } catch {
      fallBack(because: error)
      return try terminal.confirm(request)
    }
  }

  /// Turns to the terminal for this request and every later one, saying why
  /// on standard error (gpg-agent's log).
  private mutating func fallBack(because error: DisplayError) {
    windowFailed = true
    System.write(
      "\(WindowPinentryCommand.name): \(error.description); asking on the terminal\n", to: 2)
  }

  /// Whether to ask in a window: a display is known and GTK has not failed
  /// to open one. The client's display is put into `DISPLAY`, where GTK
  /// reads it, before GTK first opens it.
  private func opensWindow(for environment: PinentryEnvironment) -> Bool {
    guard !windowFailed else { return false }
    if let display = environment.display {
      setenv("DISPLAY", display, 1)
      return true
    }
    return environmentDisplay != nil
  }

  /// `label` for a button that reads `_` as a mnemonic mark: the session has
  /// already stripped the client's marks, so each `_` left is a literal one.
  static func literalLabel(_ label: String) -> String {
    var literal = ""
    for character in label {
      if character == "_" { literal.append("_") }
      literal.append(character)
    }
    return literal
  }
}
