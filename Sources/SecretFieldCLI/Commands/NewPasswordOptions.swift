import SecretField
import SecretFieldTerminal
import SecureMemory
import ToolSupport

/// The options of a command that takes a new password (`hash`, `prompt
/// --confirm`): it is judged by NIST SP 800-63B-4's rules (`StrengthRules`)
/// and refused when it breaks one, unless `--allow-weak`.
///
/// On the terminal the prompt shows the strength line and refuses Enter on a
/// refused password; whatever the source, the command judges the password
/// again once it has it, so a `--password-from` one is refused too.
package struct NewPasswordOptions: Sendable, Hashable {
  /// Accept a refused password, with a warning (`--allow-weak`).
  package var allowsWeak = false
  /// The user's name (`--user NAME`).
  package var userName: String?
  /// Other words of the context (`--context WORD`, repeatable).
  package var contextWords: [String] = []
  /// The first of these options given, for a command that takes no new
  /// password to name in its refusal.
  package private(set) var firstGiven: String?

  /// Nothing given: judge by the default rules, refuse a weak password.
  package init() {}

  /// The options' lines of `--help`.
  static let help = """
      --allow-weak     accept a new password the strength rules refuse
                       (too short, common, made of your name, easy to guess),
                       with a warning on standard error
      --user NAME      the user's name: refused inside a new password
      --context WORD   a word of the context, such as the service's or the
                       host's name: refused inside a new password. Repeatable
    """

  /// Takes `option` when it is one of these; returns false for another.
  mutating func parse(
    _ option: String, inline: String?, scanner: inout ArgumentScanner
  ) throws(UsageError) -> Bool {
    switch option {
    case "--allow-weak":
      if inline != nil { throw .unexpectedValue(option) }
      allowsWeak = true
    case "--user":
      let value = try scanner.value(of: option, inline: inline, describedAs: "a user name")
      guard !value.isEmpty else { throw .invalidValue(option, value, "a user name") }
      userName = value
    case "--context":
      let value = try scanner.value(of: option, inline: inline, describedAs: "a word")
      guard !value.isEmpty else { throw .invalidValue(option, value, "a word") }
      contextWords.append(value)
    default:
      return false
    }
    if firstGiven == nil { firstGiven = option }
    return true
  }

  /// The rules a new password is judged by: `minimumLength` (the command's
  /// `--min-length`) when given, else NIST's 15, and these context words.
  func rules(minimumLength: Int?) -> StrengthRules {
    StrengthRules(
      minimumLength: minimumLength ?? StrengthRules.singleFactor.minimumLength,
      userName: userName, contextWords: contextWords)
  }

  /// Sets `configuration` to judge the first entry on the terminal by
  /// `rules`, unless a weak password is allowed (then it is judged once
  /// taken, and only warned about).
  func judgeOnTerminal(_ configuration: inout PromptConfiguration, rules: StrengthRules) {
    if !allowsWeak { configuration.strength = rules }
  }

  /// The judge the command checks the new password with once it has it,
  /// made before the password is asked for, so that nothing after Enter
  /// needs more locked memory; nil when the terminal prompt judges it in
  /// full at Enter (`asksOnTerminal`, without `--allow-weak`).
  ///
  /// - Throws: `SecureMemoryError` when the judge's scratch cannot be had.
  func judge(
    rules: StrengthRules, asksOnTerminal: Bool
  ) throws(SecureMemoryError) -> StrengthJudge? {
    if asksOnTerminal && !allowsWeak { return nil }
    return try StrengthJudge(
      rules: rules, storage: StrengthLine.scratchStorage(for: ToolMemory.storage))
  }

  /// Judges `secret` with `judge` (nil: the prompt judged it): nil when it
  /// is accepted, or allowed with a warning on standard error; else the
  /// reasons on standard error and the status to exit with (1).
  func check(
    _ secret: borrowing SecureBuffer, with judge: inout StrengthJudge?, context: CommandContext,
    command: String
  ) -> ExitStatus? {
    guard let strength = judge?.judge(secret), !strength.isAccepted else { return nil }
    let reasons = strength.reasons.map { StrengthCommand.visible($0.description) }
    if allowsWeak {
      context.printError(
        "warning: a weak password was taken (--allow-weak): " + reasons.joined(separator: "; "),
        command: command)
      return nil
    }
    for reason in reasons {
      context.printError("the new password is refused: \(reason)", command: command)
    }
    context.printError(
      "choose a longer or less guessable one, or pass --allow-weak to take it", command: command)
    return .cancelled
  }
}
