package import SecretField
package import SecretSources
import SecretFieldTerminal
import SecureMemory
import SystemCalls
package import ToolSupport

/// `secretfield strength`: judges a password taken from a source, for a
/// script, by NIST SP 800-63B-4's rules and zxcvbn's estimate.
package struct StrengthCommand: Command {
  /// `strength`.
  package static let name = "strength"
  /// One line for the tool's list.
  package static let summary = "judge a password from a source: accepted or refused, and why"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield strength --password-from SPEC [OPTIONS]

    Judges a new password by the rules of NIST SP 800-63B-4 and prints the
    verdict: accepted, or refused with a reason for each rule it breaks (too
    short, on the bundled list of common passwords, holds your user name or
    a context word in any case, reversed or with look-alike characters such as
    @ for a, or is easy to guess: a repeat, a sequence, keys next to each
    other, a list word with look-alikes, a date). It also gives zxcvbn's score
    from 0 to 4 and the estimated number of guesses. The password is read
    into secure memory and judged there; it is never shown, and never asked
    for on the terminal.

      secretfield strength --password-from env:NEW_PASSWORD --user "$USER"
      secretfield strength --stdin --json < new-password.txt

    Options:
      --password-from SPEC
                       where the password comes from: env:VAR, file:PATH,
                       fd:N, stdin, cmd:COMMAND, credential:NAME or
                       keyring:NAME. Repeatable: the first that is set is used
      --stdin          the same as --password-from stdin: one line of
                       standard input
      --user NAME      the user's name: refused inside the password
      --context WORD   a word of the context, such as the service's or the
                       host's name: refused inside the password. Repeatable
      --min-length N   the fewest characters (Unicode code points) accepted,
                       0 to 1024; 15 by default, 8 for a second factor
      --json           print one line of JSON: {"verdict":"accepted" or
                       "refused","score":0 to 4,"guesses_log10":N,"reasons":[...]}
      -h, --help       show this help
      --version        show the version

    Exit status: 0 accepted; 1 refused, or the source failed; 2 usage error.
    """

  /// Where the password may come from, the first that is set is used.
  package var passwordSources: [SecretSource] = []
  /// The rules the password is judged by.
  package var rules = StrengthRules()
  /// Print JSON instead of words (`--json`).
  package var printsJSON = false

  /// Parses the options.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    var contextWords: [String] = []
    while let item = scanner.next() {
      func flag(_ option: String, _ inline: String?) throws(UsageError) {
        if inline != nil { throw .unexpectedValue(option) }
      }
      switch item {
      case .option("--password-from", let inline):
        let value = try scanner.value(
          of: "--password-from", inline: inline,
          describedAs: "a source such as env:VAR or file:PATH")
        do {
          passwordSources.append(try SecretSource(specification: value))
        } catch {
          throw UsageError(.invalidValue, "--password-from: \(error.description)")
        }
      case .option("--stdin", let inline):
        try flag("--stdin", inline)
        passwordSources.append(.standardInput)
      case .option("--user", let inline):
        let value = try scanner.value(of: "--user", inline: inline, describedAs: "a user name")
        guard !value.isEmpty else { throw .invalidValue("--user", value, "a user name") }
        rules.userName = value
      case .option("--context", let inline):
        let value = try scanner.value(of: "--context", inline: inline, describedAs: "a word")
        guard !value.isEmpty else { throw .invalidValue("--context", value, "a word") }
        contextWords.append(value)
      case .option("--min-length", let inline):
        let value = try scanner.value(of: "--min-length", inline: inline, describedAs: "a number")
        guard let number = Int(value), (0...1024).contains(number) else {
          throw .invalidValue("--min-length", value, "a whole number from 0 to 1024")
        }
        rules.minimumLength = number
      case .option("--json", let inline):
        try flag("--json", inline)
        printsJSON = true
      case .option(let name, _):
        throw .unknownOption(name)
      case .argument(let word):
        throw .unexpectedArgument(
          word, "the password is never an argument; give it with --password-from or --stdin")
      }
    }
    rules.contextWords = contextWords
    guard !passwordSources.isEmpty else {
      throw UsageError(
        .missingArgument,
        "give the password with --password-from SPEC or --stdin; strength never asks for it")
    }
  }

  /// Obtains the password, judges it, prints the verdict.
  package func run(in context: CommandContext) -> ExitStatus {
    let sources = passwordSources.map { source -> SecretSource in
      if case .standardInput = source, context.standardInput != 0 {
        return .descriptor(context.standardInput)
      }
      return source
    }
    let source = SecretSource.firstAvailable(sources)
    let password: SecureBuffer
    do {
      password = try source.obtain(storage: ToolMemory.storage) { warning in
        context.printError("warning: \(warning.description)", command: Self.name)
      }
    } catch {
      let hint =
        error.code == .notSet ? "; give a source that is set with --password-from or --stdin" : ""
      context.printError(error.description + hint, command: Self.name)
      return PromptOptions.status(for: error, source: source)
    }
    var judge: StrengthJudge
    do {
      judge = try StrengthJudge(
        rules: rules, storage: StrengthLine.scratchStorage(for: ToolMemory.storage))
    } catch {
      context.printError(error.description, command: Self.name)
      return .cancelled
    }
    let strength = judge.judge(password)
    _ = consume password
    let text = printsJSON ? Self.json(strength) : Self.words(strength)
    if let errno = context.printOutput(text) {
      context.printError(
        errno == Errno.brokenPipe.code
          ? "standard output was closed before the verdict could be written"
          : "could not write the verdict: \(Errno(errno).description)", command: Self.name)
      return .cancelled
    }
    return strength.isAccepted ? .success : .cancelled
  }

  /// The verdict in words: a line with the verdict and the estimate, then a
  /// line per reason.
  static func words(_ strength: PasswordStrength) -> String {
    var text =
      "\(strength.verdict.rawValue): score \(strength.score) of 4, about 10^"
      + "\(decimal(strength.guessesLog10, places: 1)) guesses\n"
    for reason in strength.reasons {
      text += "  - \(visible(reason.description))\n"
    }
    return text
  }

  /// The verdict as one line of JSON.
  static func json(_ strength: PasswordStrength) -> String {
    let reasons = strength.reasons.map { jsonString($0.description) }.joined(separator: ",")
    return "{\"verdict\":\"\(strength.verdict.rawValue)\",\"score\":\(strength.score),"
      + "\"guesses_log10\":\(decimal(strength.guessesLog10, places: 2)),"
      + "\"reasons\":[\(reasons)]}\n"
  }

  /// `value` (not negative) with `places` decimals, as in `21.19`.
  static func decimal(_ value: Double, places: Int) -> String {
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((max(value, 0) * Double(scale)).rounded())
    let fraction = String(scaled % scale)
    return "\(scaled / scale)."
      + String(repeating: "0", count: places - fraction.count) + fraction
  }

  /// `text` as a JSON string: quotes, backslashes and control characters
  /// escaped.
  static func jsonString(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped + "\""
  }

  /// `text` with control characters shown as `\xNN`, so a context word given
  /// on the command line cannot move the terminal's cursor or change its
  /// colours.
  static func visible(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        let hex = String(scalar.value, radix: 16)
        shown += "\\x" + (hex.count == 1 ? "0" : "") + hex
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }
}
