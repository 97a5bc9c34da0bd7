import SecretField
import SecureMemory
package import ToolSupport

/// `secretfield-window askpass [--timeout S] [--] [PROMPT]`: the askpass in a
/// window, with the terminal askpass's contract (see `AskpassCommand`): the
/// answer and a newline on standard output and status 0; nothing on standard
/// output and status 1 for a cancel (Esc, Cancel, the window closed); 124 when
/// the timeout passed. `SSH_ASKPASS_PROMPT=confirm` asks yes or no (0 or 1,
/// nothing written); `none` shows the message until the caller ends it.
package enum WindowAskpass {
  /// The text of `--help`.
  static let help = """
    Usage: secretfield-window askpass [--timeout S] [--] [PROMPT]

    The askpass helper of ssh, sudo and git, in a window: it shows PROMPT
    ("Password:" by default; the lines before the last one above the field)
    and writes what was typed with a newline to standard output.
    secretfield-askpass runs it when there is no terminal and there is a
    display; SSH_ASKPASS_PROMPT=confirm asks yes or no.

      --timeout S   give up after S seconds: exit status 124

    Keys: Enter answers, Esc cancels, Tab shows or hides the password;
    copy, cut and paste are refused.

    Exit status: 0 written (or yes); 1 cancelled, no, or no display;
    2 usage error; 124 timed out.
    """

  /// Runs the askpass with `arguments` (those after `askpass`).
  package static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
    var timeout: Duration?
    var rest = arguments[...]
    while let first = rest.first, first.hasPrefix("--") {
      rest.removeFirst()
      switch first {
      case "--": break
      case "--help":
        context.printOutput(help + "\n")
        return .success
      case "--timeout":
        guard let value = rest.popFirst(), let wait = ArgumentScanner.wait(seconds: value) else {
          context.printError("--timeout needs a number of seconds above 0, up to a year")
          return .usageError
        }
        timeout = wait
        continue
      default:
        context.printError("unknown option \(first); see --help")
        return .usageError
      }
      break
    }
    let (description, prompt) = promptLines(rest.joined(separator: " "))
    var texts = DialogTexts(title: "secretfield-askpass", prompt: prompt)
    texts.description = description
    let kind: PasswordDialog.Kind
    switch context.environmentValue("SSH_ASKPASS_PROMPT") {
    case "confirm":
      kind = .confirmation
      texts.prompt = prompt == "Password:" ? "Continue?" : rest.joined(separator: " ")
      texts.description = nil
      texts.okLabel = "_Yes"
      texts.cancelLabel = "_No"
    case "none":
      kind = .message
      texts.prompt = rest.joined(separator: " ")
      texts.description = nil
      texts.okLabel = "_Close"
    default:
      kind = .password
      if context.standardOutputIsTerminal {
        context.printError(
          "standard output is a terminal, so the password would be shown on the screen; "
            + "the askpass is run by ssh, sudo or git, which read it through a pipe")
        return .cancelled
      }
    }
    let caller = AskpassCaller(
      parentName: context.parentProcessName(), environmentValue: context.environmentValue)
    var limits = FieldLimits.default
    if let limit = caller.maximumAnswerByteCount { limits.maxBytes = min(limits.maxBytes, limit) }
    let dialog: PasswordDialog
    do {
      dialog = try PasswordDialog(
        kind: kind, texts: texts, limits: limits, storage: ToolMemory.storage)
    } catch {
      context.printError(error.description)
      return .cancelled
    }
    let outcome: EntryOutcome<Void>
    do {
      outcome = try dialog.run(timeout: timeout)
    } catch {
      context.printError(error.description)
      return .cancelled
    }
    if let ending = outcome.ending {
      context.printError(ending.description)
      return ExitStatus(ending)
    }
    guard kind == .password else { return .success }
    return write(dialog.field, to: context)
  }

  /// Writes the field's text and a newline to standard output in one
  /// `write(2)`, from a secure buffer the text is copied into.
  static func write(_ field: borrowing SecretFieldState, to context: CommandContext) -> ExitStatus {
    do {
      var answer = try SecureBuffer(capacity: field.utf8Count + 1, storage: ToolMemory.storage)
      try field.withSecret { bytes throws(SecureMemoryError) in try answer.append(bytes) }
      try answer.append(count: 1) { $0[0] = 0x0A }
      try answer.write(to: context.standardOutput)
      return .success
    } catch {
      context.printError("the password could not be written: \(error)")
      return .cancelled
    }
  }

  /// The prompt's lines, as the terminal askpass splits them: all but the last
  /// above the field, the last before it ("Password:" when it is blank).
  static func promptLines(_ prompt: String) -> (description: String?, prompt: String) {
    var lines = prompt.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.count > 1, lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
    let last = lines.popLast() ?? ""
    let field = last.allSatisfy(\.isWhitespace) ? "Password:" : last
    return (lines.isEmpty ? nil : lines.joined(separator: "\n"), field)
  }
}
