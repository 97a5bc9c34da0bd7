import SecretField
import SecureMemory
import ToolSupport

/// Asks for a git credential in a window: a ``PasswordDialog`` with a plain
/// user-name field (filled in when git sent the user name) above the
/// password field, whose text stays in the question's secure memory.
///
/// Enter in the user name goes on to the password; Enter in the password
/// answers once both are typed; Esc, Cancel or closing the window declines.
struct WindowCredentialAsker: CredentialAsking {
  /// The window's title.
  static let title = "secretfield credential"

  func ask(_ question: CredentialQuestion, in context: CommandContext) -> CredentialAnswer {
    var texts = DialogTexts(title: Self.title, prompt: "Password:")
    texts.description = question.title
    texts.usernameLabel = "Username:"
    texts.username = question.target.username
    let dialog: PasswordDialog
    do {
      dialog = try PasswordDialog(kind: .password, texts: texts, storage: question.storage)
    } catch {
      context.printCredentialError(error.description)
      return .failed(.cancelled)
    }
    let outcome: EntryOutcome<Void>
    do {
      outcome = try dialog.run(timeout: nil)
    } catch {
      context.printCredentialError(
        "\(error.description); git asks in its own way (GIT_ASKPASS, or its prompt)")
      return .failed(.cancelled)
    }
    switch outcome {
    case .submitted:
      do {
        return .credential(
          username: dialog.username, password: try dialog.answer(storage: question.storage))
      } catch {
        context.printCredentialError(error.description)
        return .failed(.cancelled)
      }
    case .ended(.cancelled):
      return .declined
    case .ended(let ending):
      context.printCredentialError(ending.description)
      return .failed(ExitStatus(ending))
    }
  }
}
