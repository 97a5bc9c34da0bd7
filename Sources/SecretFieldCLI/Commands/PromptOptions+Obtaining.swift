public import SecretFieldTerminal
import SecretField

extension PromptOptions {
  /// Asks for the password as these options say: on the terminal with
  /// `configuration`, or one line of standard input. Prints why there is none,
  /// unless the user cancelled.
  ///
  /// - Parameter command: the command's name, for messages.
  public func obtainSecret(
    configuration: PromptConfiguration, context: CommandContext, command: String
  ) -> SecretOutcome {
    let result: PromptResult
    do {
      if readsStandardInput {
        result = try PasswordPrompt.readLine(
          from: context.standardInput, maximumCount: configuration.fieldLimits.maxBytes,
          timeout: timeout, storage: configuration.storage)
      } else {
        result = try PasswordPrompt(configuration).run()
      }
    } catch {
      context.printError(error.description, command: command)
      return .ended(Self.status(for: error, readingStandardInput: readsStandardInput))
    }
    switch consume result {
    case .submitted(let secret):
      return .secret(secret)
    case .cancelled:
      return .ended(.cancelled)
    case .timedOut:
      context.printError("timed out waiting for the password", command: command)
      return .ended(.timedOut)
    case .hungUp:
      context.printError(
        "the terminal went away before the password was entered", command: command)
      return .ended(.noTerminal)
    case .confirmationFailed(let attempts):
      context.printError(
        "the two entries differed \(attempts) times; nothing was taken", command: command)
      return .ended(.mismatch)
    }
  }

  /// The exit status for a prompt that could not run: 3 for every failure of
  /// the terminal, 2 for a line too long, 1 for the rest.
  static func status(for error: PromptError, readingStandardInput: Bool) -> ExitStatus {
    switch error.code {
    case .noTerminal, .notATerminal, .terminalModesFailed, .writeFailed:
      return .noTerminal
    case .readFailed:
      return readingStandardInput ? .cancelled : .noTerminal
    case .inputTooLong:
      return .usageError
    default:
      return .cancelled
    }
  }
}
