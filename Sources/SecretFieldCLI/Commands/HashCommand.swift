package import SecretField
import SecretFieldTerminal
package import SecureMemory
import SystemCalls
package import ToolSupport

/// `secretfield hash`: asks for a new password twice and prints its Argon2id
/// hash, to store and later check with `secretfield verify`.
package struct HashCommand: Command {
  /// `hash`.
  package static let name = "hash"
  /// One line for the tool's list.
  package static let summary = "ask for a new password twice; print its Argon2id hash"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield hash [OPTIONS] [TEXT]

    Asks for a new password twice on the terminal and prints its Argon2id hash
    ($argon2id$v=19$m=...) with a newline to standard output. The hash is not
    secret: store it, and check a password against it with secretfield verify.

    The new password is judged by the rules of NIST SP 800-63B-4 (at least 15
    characters, or --min-length; not a common password; not made of your
    name or a context word; not easy to guess), as secretfield strength does.
    On the terminal a strength line under the field shows the verdict as you
    type and Enter refuses a weak password, saying why; from --password-from
    a weak password is refused with the reasons on standard error.

    Options:
      --strength S     interactive (default, 64 MiB, about 0.1 s), moderate
                       (256 MiB, about 0.4 s) or sensitive (1 GiB, about 3 s)
    \(NewPasswordOptions.help)
    \(PromptOptions.help)

    Exit status: 0 printed; 1 cancelled, the password was refused as weak, a
    --password-from source failed, or hashing failed; 2 usage error; 3 no
    terminal; 4 the two entries differed 3 times; 124 timed out.
    """

  /// The prompt's options.
  package var options = PromptOptions()
  /// How much work the hash costs (`--strength`).
  package var strength = PasswordHash.Strength.interactive
  /// How the new password is judged (`--allow-weak`, `--user`, `--context`).
  package var newPassword = NewPasswordOptions()

  /// Parses `[OPTIONS] [TEXT]`.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    while let item = scanner.next() {
      switch item {
      case .option("--strength", let inline):
        let value = try scanner.value(
          of: "--strength", inline: inline, describedAs: "interactive, moderate or sensitive")
        guard let strength = PasswordHash.Strength.allCases.first(where: { "\($0)" == value })
        else {
          throw .invalidValue("--strength", value, "interactive, moderate or sensitive")
        }
        self.strength = strength
      case .option(let name, let inline):
        if try newPassword.parse(name, inline: inline, scanner: &scanner) { continue }
        try options.parse(name, inline: inline, scanner: &scanner)
      case .argument(let word):
        guard options.text == nil else {
          throw .unexpectedArgument(word, "the prompt text is one argument; quote it")
        }
        options.text = word
      }
    }
    try options.validate(confirms: false, judges: true)
  }

  /// The rules the new password is judged by.
  package var rules: StrengthRules {
    newPassword.rules(minimumLength: options.minimumLengthGiven ? options.minimumLength : nil)
  }

  /// Prompts twice (once with `--stdin`), hashes, prints the hash.
  package func run(in context: CommandContext) -> ExitStatus {
    var configuration = options.configuration(
      defaultPrompt: "New password:",
      confirmation: PromptConfiguration.Confirmation(prompt: "Again:"), context: context)
    let rules = rules
    newPassword.judgeOnTerminal(&configuration, rules: rules)
    var judge: StrengthJudge?
    do {
      judge = try newPassword.judge(rules: rules, asksOnTerminal: options.asksOnTerminal)
    } catch {
      context.printError(error.description, command: Self.name)
      return .cancelled
    }
    return options.withSecret(
      configuration: configuration, context: context, command: Self.name
    ) { secret in
      if let refused = newPassword.check(
        secret, with: &judge, context: context, command: Self.name)
      {
        return refused
      }
      let hash: PasswordHash
      do throws(SecureMemoryError) {
        hash = try PasswordHash(hashing: secret, strength: strength)
      } catch {
        context.printError(error.description, command: Self.name)
        return .cancelled
      }
      if let errno = context.printOutput(hash.string + "\n") {
        context.printError(
          errno == Errno.brokenPipe.code
            ? "standard output was closed before the hash could be written"
            : "could not write the hash: \(Errno(errno).description)", command: Self.name)
        return .cancelled
      }
      return .success
    }
  }
}
