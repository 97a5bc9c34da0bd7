import SecretField
import SecretFieldTerminal
import SecureMemory

/// Asks for a git credential on the terminal (`/dev/tty`, as git's own
/// prompt does): a ``SecretFieldTerminal/TerminalForm`` of two fields, the
/// user name in plain text (filled in when git knows it) and the password
/// masked, with the form's reveal key and the prompt's editing.
package struct TerminalCredentialAsker: CredentialAsking {
  /// The asker of `secretfield credential get` on a terminal.
  package init() {}

  /// Shows the form; Enter on the password submits, Esc and ^C cancel.
  package func ask(_ question: CredentialQuestion, in context: CommandContext) -> CredentialAnswer {
    var form = TerminalForm(fields: [
      FormField(
        name: "username", label: "Username:",
        kind: .plain(initialText: question.target.username ?? ""), minimumLength: 1),
      FormField(name: "password", label: "Password:", kind: .secret, minimumLength: 1),
    ])
    form.description = question.title
    form.terminalPath = context.terminalPath
    form.storage = question.storage
    let result: EntryOutcome<FormAnswers>
    do {
      result = try form.run()
    } catch {
      switch error.code {
      case .noTerminal, .notATerminal:
        context.printCredentialError(
          "\(error.description.split(separator: ";").first ?? ""): nothing to ask on, so "
            + "git asks in its own way (GIT_ASKPASS, or its prompt)")
      default:
        context.printCredentialError(error.description)
      }
      return .failed(ExitStatus(error))
    }
    switch result {
    case .submitted(let answers):
      let password: SecureBuffer?
      do {
        password = try answers.secrets.copySecret(for: "password", storage: question.storage)
      } catch {
        context.printCredentialError(error.description)
        return .failed(.cancelled)
      }
      guard let password else { return .failed(.cancelled) }
      return .credential(username: answers.texts["username"] ?? "", password: password)
    case .ended(.cancelled):
      return .declined
    case .ended(let ending):
      context.printCredentialError(ending.description)
      return .failed(ExitStatus(ending))
    }
  }
}
