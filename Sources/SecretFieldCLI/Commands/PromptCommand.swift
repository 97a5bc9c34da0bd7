package import SecretField
package import SecretFieldTerminal
import SecureMemory
import SystemCalls
package import ToolSupport

/// `secretfield prompt`: asks for a password on the terminal and writes it,
/// with a newline, to standard output.
///
/// The prompt is drawn on `/dev/tty`, so standard output can be piped into the
/// program that needs the password. It refuses when standard output is itself
/// a terminal: that would print the password on the screen.
package struct PromptCommand: Command {
  /// `prompt`.
  package static let name = "prompt"
  /// One line for the tool's list.
  package static let summary = "ask for a password on the terminal; print it to standard output"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield prompt [OPTIONS] [TEXT]

    Asks for a password on the terminal (/dev/tty) with TEXT before the field
    ("Password:" by default), and writes it with a newline to standard output,
    which must not be a terminal: pipe it into the program that reads it.

      secretfield prompt "Disk passphrase:" | cryptsetup open --key-file=- /dev/sdb1 data
      secretfield prompt --keyname backup --accept-cached | restic backup ...

    With --confirm the password is a new one, judged by the rules of NIST SP
    800-63B-4 as secretfield strength does: a strength line under the first
    entry shows the verdict as you type, Enter refuses a weak password saying
    why, and one from --password-from is refused with the reasons on
    standard error (exit 1), unless --allow-weak.

    Options:
      --confirm        ask twice; after 3 entries that differ, give up (exit 4)
    \(NewPasswordOptions.help)
    \(PassphraseCache.help)
    \(PromptOptions.help)

    \(PromptOptions.keys)

    Exit status: 0 written; 1 cancelled, a new password was refused as weak, a
    --password-from source failed, or standard output was closed; 2 usage
    error; 3 no terminal, or standard output is a terminal; 4 the entries
    differed; 124 timed out. A signal (INT, TERM, HUP) ends it by that signal,
    after the terminal is restored.
    """

  /// The prompt's options.
  package var options = PromptOptions()
  /// Ask twice and compare (`--confirm`).
  package var confirms = false
  /// How a new password is judged, with `--confirm` (`--allow-weak`,
  /// `--user`, `--context`).
  package var newPassword = NewPasswordOptions()
  /// The kernel-keyring cache (`--keyname`, `--accept-cached`, `--multiple`,
  /// `--cache-timeout`).
  package var cache = PassphraseCache()

  /// Parses `[OPTIONS] [TEXT]`.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    var cacheTimeoutGiven = false
    while let item = scanner.next() {
      switch item {
      case .option("--confirm", let inline):
        if inline != nil { throw .unexpectedValue("--confirm") }
        confirms = true
      case .option(let name, let inline):
        if try newPassword.parse(name, inline: inline, scanner: &scanner) { continue }
        if try cache.parse(name, inline: inline, scanner: &scanner) {
          cacheTimeoutGiven = cacheTimeoutGiven || name == "--cache-timeout"
          continue
        }
        try options.parse(name, inline: inline, scanner: &scanner)
      case .argument(let word):
        guard options.text == nil else {
          throw .unexpectedArgument(
            word,
            "the prompt text is one argument; quote it, as in "
              + "secretfield prompt \"Password for \(word):\"")
        }
        options.text = word
      }
    }
    if !confirms, let given = newPassword.firstGiven {
      throw UsageError(
        .missingArgument, "\(given) judges a new password: it needs --confirm")
    }
    try options.validate(confirms: confirms)
    try cache.validate(timeoutGiven: cacheTimeoutGiven)
  }

  /// The rules a new password (`--confirm`) is judged by; nil without
  /// `--confirm`.
  package var rules: StrengthRules? {
    guard confirms else { return nil }
    return newPassword.rules(
      minimumLength: options.minimumLengthGiven ? options.minimumLength : nil)
  }

  /// The prompt this command shows, on `context`'s terminal.
  package func configuration(in context: CommandContext) -> PromptConfiguration {
    var configuration = options.configuration(
      defaultPrompt: "Password:",
      confirmation: confirms ? PromptConfiguration.Confirmation() : nil, context: context)
    if let rules { newPassword.judgeOnTerminal(&configuration, rules: rules) }
    return configuration
  }

  /// Prompts (or, with `--accept-cached`, takes what is cached), then writes
  /// the password and a newline to standard output from secure memory, in
  /// one `write(2)`. With `--keyname`, an answer is cached before it is
  /// written.
  package func run(in context: CommandContext) -> ExitStatus {
    if context.standardOutputIsTerminal {
      context.printError(
        "standard output is a terminal, so the password would be shown on the screen; "
          + "pipe it into the program that reads it (secretfield prompt | program) "
          + "or redirect it to a file", command: Self.name)
      return .noTerminal
    }
    var cacheWarned: KeyringError.Code?
    if let status = cache.writeCached(context: context, command: Self.name, warned: &cacheWarned) {
      return status
    }
    var judge: StrengthJudge?
    if let rules {
      do {
        judge = try newPassword.judge(rules: rules, asksOnTerminal: options.asksOnTerminal)
      } catch {
        context.printError(error.description, command: Self.name)
        return .cancelled
      }
    }
    return options.withSecret(
      configuration: configuration(in: context), context: context, command: Self.name
    ) { secret in
      if let refused = newPassword.check(
        secret, with: &judge, context: context, command: Self.name)
      {
        return refused
      }
      cache.remember(secret, context: context, command: Self.name, warned: &cacheWarned)
      do {
        try secret.append(count: 1) { $0[0] = 0x0A }
        try secret.write(to: context.standardOutput)
      } catch {
        context.printError(Self.writeFailureMessage(error), command: Self.name)
        return .cancelled
      }
      return .success
    }
  }

  /// What to say when the password could not be written: a closed pipe in
  /// words, else the error.
  static func writeFailureMessage(_ error: any Error) -> String {
    if (error as? SecureMemoryError)?.errno == Errno.brokenPipe.code {
      return "standard output was closed before the password could be written (the program "
        + "reading it has exited); nothing was written"
    }
    return "could not write the password to standard output: \(error)"
  }
}
