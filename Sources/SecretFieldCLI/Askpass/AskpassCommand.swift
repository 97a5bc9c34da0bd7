import SecretField
import SecretFieldTerminal
import SecureMemory
import SystemCalls
import SecretSources
import ToolSupport

/// `secretfield-askpass [PROMPT]`: the helper that ssh, sudo and git run to ask
/// for a password (`SSH_ASKPASS`, `SUDO_ASKPASS`, `GIT_ASKPASS`), asking on the
/// terminal.
///
/// The contract of its callers: the prompt comes as the first argument; the
/// answer goes to standard output with a newline, exit status 0; for anything
/// else (a cancel, no terminal) nothing goes to standard output and the status
/// is 1, the reason on standard error. The prompt is drawn on `/dev/tty`,
/// since standard output is the caller's pipe.
///
/// `SSH_ASKPASS_PROMPT` in the environment changes what is asked, as ssh sets
/// it: `confirm` asks yes or no (0 for yes, 1 for no, nothing written); `none`
/// only shows the message and waits to be ended (ssh ends it with `SIGTERM`
/// once a security key was touched).
struct AskpassCommand: Command {
  /// What the askpass is asked to do, from `SSH_ASKPASS_PROMPT`.
  enum Mode: Sendable, Hashable {
    /// Ask for a secret and print it (no `SSH_ASKPASS_PROMPT`, or another value).
    case secret
    /// Ask yes or no (`SSH_ASKPASS_PROMPT=confirm`).
    case confirm
    /// Show the message until ended (`SSH_ASKPASS_PROMPT=none`).
    case notice

    /// The mode `SSH_ASKPASS_PROMPT`'s value asks for.
    init(promptHint: String?) {
      switch promptHint {
      case "confirm": self = .confirm
      case "none": self = .notice
      default: self = .secret
      }
    }
  }

  /// `askpass`, for messages.
  static let name = "askpass"
  /// The executable's name.
  static let toolName = "secretfield-askpass"
  /// One line for a list of commands.
  static let summary = "ask for a password on the terminal for ssh, sudo or git"
  /// The text of `--help`.
  static let help = """
    Usage: secretfield-askpass [PROMPT]

    The askpass helper of ssh, sudo and git, asking on the terminal (/dev/tty):
    it shows PROMPT ("Password:" by default; a PROMPT of several lines shows
    them all, the last one before the field), and writes what was typed with a
    newline to standard output, which is the caller's pipe.

      SSH_ASKPASS=secretfield-askpass SSH_ASKPASS_REQUIRE=force ssh-add
      SUDO_ASKPASS=/usr/local/bin/secretfield-askpass sudo -A true
      GIT_ASKPASS=secretfield-askpass git push

    SECRETFIELD_PASSWORD_FROM=SPEC takes the password from SPEC instead of
    asking, as secretfield prompt --password-from SPEC does (env:VAR, file:PATH,
    fd:N, stdin, cmd:COMMAND, credential:NAME, keyring:NAME); a variable,
    credential or key that is not set asks on the terminal.

    SECRETFIELD_KEYNAME=NAME caches the answer in the kernel keyring under NAME
    (as secretfield prompt --keyname NAME --accept-cached does): once a
    passphrase is cached there, it is written without asking, until its
    timeout (150 s) or secretfield forget NAME.

    With no terminal to ask on and a display (DISPLAY or WAYLAND_DISPLAY),
    it asks in a window instead when secretfield-window is installed beside
    it (it becomes that program: secretfield-window askpass), the confirm
    and none modes too; SECRETFIELD_ASKPASS_FRONTEND=terminal or window
    forces one (any other value is refused).

    SSH_ASKPASS_PROMPT=confirm asks yes or no instead: y answers yes; n, Esc, ^C
    or ^D answer no. SSH_ASKPASS_PROMPT=none shows PROMPT and waits to be ended
    (ssh ends it).

    \(PromptOptions.keys)

    Exit status: 0 written (or yes); 1 for everything else: cancelled, no,
    no terminal, standard output a terminal; the reason is on standard error,
    nothing on standard output. A signal (INT, TERM, HUP) ends it by that
    signal, after the terminal is restored.
    """

  /// The prompt, as the caller gave it.
  var prompt: String
  /// What to ask; set from the environment by ``run(_:context:hardening:)``.
  var mode = Mode.secret
  /// Who runs the askpass; set by ``run(_:context:hardening:)``. An answer the
  /// caller would cut is refused in the field.
  var caller = AskpassCaller.other
  /// The kernel-keyring cache; set from `SECRETFIELD_KEYNAME` by
  /// ``run(_:context:hardening:)``.
  var cache = PassphraseCache()

  /// The variable that names the key to cache the answer under.
  static let keynameVariable = "SECRETFIELD_KEYNAME"

  /// Takes every argument as the prompt, joined by spaces: callers pass one,
  /// and a wrapper that splits it into several does no harm.
  init(arguments: [String]) throws(UsageError) {
    prompt = arguments.joined(separator: " ")
  }

  /// Runs the askpass: `--help` and `--version` when they are the only
  /// argument (a prompt is never just that), else asks in the mode
  /// `SSH_ASKPASS_PROMPT` names.
  ///
  /// - Parameter hardening: what the process's hardening achieved, for a
  ///   warning when it is incomplete.
  static func run(
    _ arguments: [String], context: CommandContext = CommandContext(toolName: toolName),
    hardening: HardeningReport? = nil
  ) -> ExitStatus {
    switch arguments {
    case ["--help"], ["-h"]:
      context.printOutput(help + "\n")
      return .success
    case ["--version"]:
      context.printOutput("\(toolName) \(SecretFieldTool.version)\n")
      return .success
    default:
      break
    }
    var command: Self
    do {
      command = try Self(arguments: arguments)
    } catch {
      context.printError(error.description)
      return .cancelled
    }
    command.mode = Mode(promptHint: context.environmentValue("SSH_ASKPASS_PROMPT"))
    command.caller = AskpassCaller(
      parentName: context.parentProcessName(), environmentValue: context.environmentValue)
    if let keyname = context.environmentValue(keynameVariable), !keyname.isEmpty {
      command.cache = PassphraseCache(acceptingCachedUnder: keyname)
    }
    if let hardening, !hardening.isComplete {
      context.printError("warning: the process is only partly hardened: \(hardening)")
    }
    return command.run(in: context)
  }

  /// Asks as ``mode`` says, on the terminal or in a window
  /// (``frontEnd(in:windowProgramExists:terminalOpens:)``). Exits 0 or 1
  /// only, as callers expect.
  func run(in context: CommandContext) -> ExitStatus {
    let frontEnd: FrontEnd
    do {
      frontEnd = try Self.frontEnd(in: context)
    } catch {
      context.printError(error.description)
      return .cancelled
    }
    if frontEnd == .window {
      return FrontEnd.openWindow(
        ["askpass", "--", prompt], variable: Self.frontEndVariable, context: context)
    }
    return switch mode {
    case .secret: askForSecret(in: context)
    case .confirm: confirm(in: context)
    case .notice: showNotice(in: context)
    }
  }

  /// The variable that forces a front end: `terminal` or `window`.
  static let frontEndVariable = "SECRETFIELD_ASKPASS_FRONTEND"

  /// Where to ask: as ``FrontEnd/choose(variable:in:windowProgramExists:terminalOpens:)``
  /// decides from `SECRETFIELD_ASKPASS_FRONTEND`, the terminal and the
  /// display, except that a password source (`SECRETFIELD_PASSWORD_FROM`) or
  /// a cache (`SECRETFIELD_KEYNAME`) keeps the terminal askpass, which reads
  /// them first, unless the variable says `window`.
  ///
  /// - Throws: ``UsageError`` when the variable holds neither `terminal` nor
  ///   `window`.
  static func frontEnd(
    in context: CommandContext,
    windowProgramExists: () -> Bool = { FrontEnd.windowProgram != nil },
    terminalOpens: (String) -> Bool = System.canOpenTerminal
  ) throws(UsageError) -> FrontEnd {
    let forced = context.environmentValue(frontEndVariable).map { !$0.isEmpty } == true
    if !forced,
      context.environmentValue(PromptOptions.sourceVariable) != nil
        || context.environmentValue(keynameVariable).map({ !$0.isEmpty }) == true
    {
      return .terminal
    }
    return try FrontEnd.choose(
      variable: frontEndVariable, in: context, windowProgramExists: windowProgramExists,
      terminalOpens: terminalOpens)
  }

  /// The prompt's lines: all but the last above the field, the last before it.
  var promptLines: (description: String?, prompt: String) {
    var lines = prompt.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.count > 1, lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
    let last = lines.popLast() ?? ""
    let prompt = last.allSatisfy(\.isWhitespace) ? "Password:" : last
    return (lines.isEmpty ? nil : lines.joined(separator: "\n"), prompt)
  }

  /// Asks for the secret and writes it with a newline to standard output, from
  /// secure memory, in one `write(2)`.
  func askForSecret(in context: CommandContext) -> ExitStatus {
    if context.standardOutputIsTerminal {
      context.printError(
        "standard output is a terminal, so the password would be shown on the screen; "
          + "the askpass is run by ssh, sudo or git, which read it through a pipe")
      return .cancelled
    }
    var cacheWarned: KeyringError.Code?
    if let status = cache.writeCached(
      context: context, command: Self.name, warned: &cacheWarned,
      maximumByteCount: caller.maximumAnswerByteCount)
    {
      return status == .success ? .success : .cancelled
    }
    var configuration = PromptConfiguration(prompt: promptLines.prompt)
    configuration.storage = ToolMemory.storage
    configuration.description = promptLines.description
    configuration.terminalPath = context.terminalPath
    Self.limitAnswer(of: &configuration, for: caller)
    var sources: [SecretSource] = [.terminal(configuration)]
    if let specification = context.environmentValue(PromptOptions.sourceVariable) {
      do {
        sources.insert(try SecretSource(specification: specification), at: 0)
      } catch {
        context.printError("\(PromptOptions.sourceVariable): \(error.description)")
        return .cancelled
      }
    }
    let source = SecretSource.firstAvailable(sources)
    var secret: SecureBuffer
    do {
      secret = try source.obtain { context.printError("warning: \($0.description)") }
    } catch {
      if let terminalError = error.terminalError {
        context.printError(Self.message(for: terminalError))
      } else if let ending = error.ending {
        if case .cancelled = ending {} else { context.printError(ending.description) }
      } else {
        context.printError(error.description)
      }
      return .cancelled
    }
    if let limit = caller.maximumAnswerByteCount, secret.count > limit {
      // From a source, not the field: refuse rather than let ssh cut it.
      context.printError(
        "the passphrase is \(secret.count) bytes, and ssh keeps only the first \(limit); "
          + "nothing was written")
      return .cancelled
    }
    cache.remember(secret, context: context, command: Self.name, warned: &cacheWarned)
    do {
      try secret.append(count: 1) { $0[0] = 0x0A }
      try secret.write(to: context.standardOutput)
    } catch {
      context.printError(PromptCommand.writeFailureMessage(error))
      return .cancelled
    }
    return .success
  }

  /// Keeps the field within what `caller` keeps of an answer, with messages
  /// that say why: a keystroke past it is refused as the field being full, a
  /// paste as too long.
  static func limitAnswer(of configuration: inout PromptConfiguration, for caller: AskpassCaller) {
    guard let limit = caller.maximumAnswerByteCount else { return }
    configuration.fieldLimits.maxBytes = min(configuration.fieldLimits.maxBytes, limit)
    configuration.texts.fieldFull =
      "ssh keeps only the first \(limit) bytes of a passphrase, so it can't be any longer."
    configuration.texts.pasteTooLong =
      "Not pasted: ssh keeps only the first \(limit) bytes of a passphrase."
  }

  /// Asks yes or no; the status is the answer, nothing is written.
  func confirm(in context: CommandContext) -> ExitStatus {
    var question = ConfirmationPrompt(question: prompt.isEmpty ? "Continue?" : prompt)
    question.terminalPath = context.terminalPath
    do {
      return try question.run().isSubmitted ? .success : .cancelled
    } catch {
      context.printError(Self.message(for: error))
      return .cancelled
    }
  }

  /// Shows the message on the terminal and waits until a signal ends the
  /// process (ssh sends `SIGTERM`) or the caller is gone. No terminal mode is
  /// changed, so a signal's default action, which ends the process, leaves
  /// nothing to restore.
  func showNotice(in context: CommandContext) -> ExitStatus {
    var notice = TerminalNotice(message: prompt)
    notice.terminalPath = context.terminalPath
    do {
      try notice.show()
    } catch {
      context.printError(Self.message(for: error))
      return .cancelled
    }
    System.waitWhileParentLives()
    return .success
  }

  /// What to say when the terminal cannot be used: the prompt's own message
  /// suggests `--stdin`, which an askpass has not.
  static func message(for error: TerminalError) -> String {
    switch error.code {
    case .noTerminal, .notATerminal:
      "\(error.description.split(separator: ";").first ?? ""); secretfield-askpass asks on "
        + "the terminal (/dev/tty) of the program that runs it: run that program from a terminal"
    default:
      error.description
    }
  }
}
