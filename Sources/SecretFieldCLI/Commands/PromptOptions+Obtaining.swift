import SecureMemory
import SecretFieldTerminal
import SecretField
import SecretSources
import ToolSupport

extension PromptOptions {
  /// Obtains the password as these options say, from the first
  /// `--password-from` source that is set, else on the terminal with
  /// `configuration` (unless `--no-prompt`), and hands it to `use`. Where
  /// there is none, prints why (unless the user cancelled) and returns the
  /// status to exit with. Prints any warning about a source.
  ///
  /// - Parameters:
  ///   - command: the command's name, for messages.
  ///   - use: the password's one use; what it returns is the command's status.
  func withSecret(
    configuration: PromptConfiguration, context: CommandContext, command: String?,
    _ use: (inout SecureBuffer) -> ExitStatus
  ) -> ExitStatus {
    // Standard input is the context's (a test's or an embedder's), and
    // --timeout bounds a command as it bounds the prompt.
    let sources = passwordSources.map { source -> SecretSource in
      switch source {
      case .standardInput where context.standardInput != 0: .descriptor(context.standardInput)
      case .command(let arguments, _) where timeout != nil:
        .command(arguments, timeout: timeout!)
      default: source
      }
    }
    let candidates = promptsWhenNoneSet ? sources + [.terminal(configuration)] : sources
    let source = SecretSource.firstAvailable(candidates)
    var secret: SecureBuffer
    do {
      secret = try source.obtain(
        maximumByteCount: configuration.fieldLimits.maxBytes, lineTimeout: timeout,
        storage: configuration.storage
      ) { warning in
        context.printError("warning: \(warning.description)", command: command)
      }
    } catch {
      if let message = Self.message(for: error, noPrompt: !promptsWhenNoneSet) {
        context.printError(message, command: command)
      }
      return Self.status(for: error, source: source)
    }
    return use(&secret)
  }

  /// What to print for `error`: the library's words, with the tool's own hints
  /// (its options); nil for a cancel by the user, which needs no message.
  static func message(for error: SecretSourceError, noPrompt: Bool) -> String? {
    switch error.code {
    case .promptEnded where error.ending.map(Self.isCancel) ?? false:
      return nil
    case .promptFailed:
      switch error.terminalError?.code {
      case .noTerminal?, .notATerminal?:
        return "\(error.description.split(separator: ";").first ?? ""); run this from a "
          + "terminal, or give the password with --stdin or --password-from"
      default:
        return error.description
      }
    case .notSet where noPrompt:
      return "\(error.description), and --no-prompt forbids asking on the terminal"
    default:
      return error.description
    }
  }

  private static func isCancel(_ ending: EntryEnding) -> Bool {
    if case .cancelled = ending { return true }
    return false
  }

  /// The exit status for `error`, the README's table: 3 for every failure of
  /// the terminal, 124 for a timeout, 4 for confirmations that differed, 2 for
  /// a `--stdin` line too long, 1 for the rest (a cancel, a source that is set
  /// but fails).
  static func status(for error: SecretSourceError, source: SecretSource) -> ExitStatus {
    switch error.code {
    case .timedOut:
      return .timedOut
    case .promptEnded:
      return error.ending.map(ExitStatus.init) ?? .cancelled
    case .promptFailed:
      return error.terminalError.map(status(forPromptError:)) ?? .cancelled
    case .tooLong:
      switch source {
      case .standardInput, .descriptor: return .usageError
      default: return .cancelled
      }
    default:
      return .cancelled
    }
  }

  /// The exit status for a prompt that could not run: 3 for every failure of
  /// the terminal, 1 for the rest.
  static func status(forPromptError error: TerminalError) -> ExitStatus {
    ExitStatus(error)
  }
}
