import SecureMemory
import SecretFieldTerminal
package import SecretSources
import ToolSupport

/// The options of every command that asks for a password: where the password
/// comes from and how the prompt behaves.
package struct PromptOptions: Sendable, Hashable {
  /// The variable the askpass reads a `--password-from` specification from,
  /// since its callers (ssh, sudo, git) pass it no options.
  package static let sourceVariable = "SECRETFIELD_PASSWORD_FROM"

  /// The prompt's text (`--prompt TEXT`, or the command's TEXT argument); nil
  /// for the command's default.
  package var text: String?
  /// Give up after this long (`--timeout S`).
  package var timeout: Duration?
  /// Where the password may come from before the prompt, in the order given
  /// (`--password-from SPEC`, and `--stdin` as `--password-from stdin`): the
  /// first that is set is used.
  package var passwordSources: [SecretSource] = []
  /// Ask on the terminal when no source is set (off with `--no-prompt`).
  package var promptsWhenNoneSet = true
  /// True when standard input is one of the sources (`--stdin`).
  package var readsStandardInput: Bool { passwordSources.contains(.standardInput) }
  /// Tab shows the password (off with `--no-reveal`).
  package var allowsReveal = true
  /// The mask glyph (`--mask C`); nil for the terminal's default.
  package var maskGlyph: Character?
  /// Show a mask per character (off with `--no-echo`: show nothing).
  package var echoes = true
  /// The fewest characters Enter accepts (`--min-length N`).
  package var minimumLength = 0
  /// True when `--min-length` was given: a new password's judge then takes
  /// it as its minimum instead of NIST's 15.
  package var minimumLengthGiven = false

  /// The defaults: prompt on the terminal, masked, reveal allowed, no timeout.
  package init() {}

  /// The options' lines of `--help`.
  static let help = """
      --prompt TEXT    the text before the field
      --timeout S      give up after S seconds (decimals allowed): exit status 124
      --password-from SPEC
                       take the password from SPEC instead of asking: env:VAR,
                       file:PATH, fd:N, stdin, cmd:COMMAND (split like a shell
                       line, run without one), credential:NAME (systemd) or
                       keyring:NAME (cached with --keyname NAME).
                       Repeatable: the first that is set is used (a variable,
                       credential or key that is not set passes to the next);
                       none set asks on the terminal. One that is set but fails
                       is an error (exit 1), never a reason to ask
      --no-prompt      when no --password-from source is set, fail (exit 1)
                       instead of asking on the terminal
      --stdin          the same as --password-from stdin: one line of standard
                       input (for scripts; nothing is shown)
      --no-reveal      Tab does not show the password
      --mask C         show each character as C (default: • on a UTF-8
                       terminal, * elsewhere)
      --no-echo        show nothing at all while typing
      --min-length N   refuse a password of fewer than N characters
      -h, --help       show this help
      --version        show the version
    """

  /// The keys the prompt takes, for `--help`.
  static let keys = """
    Keys: typing and pasting insert at the caret; Left, Right, Home, End (and ^B ^F
    ^A ^E) move; Backspace, Delete, ^U (to start), ^K (to end), ^W (word) delete;
    Tab shows or hides the password; Enter submits; Esc, ^C, or ^D on an empty
    field cancels; ^L redraws; ^Z suspends.
    """

  /// Takes `option`, reading its value from `scanner`. A command asks these
  /// last, after its own options, so an option they do not know is unknown
  /// to the command: that is the error thrown.
  mutating func parse(
    _ option: String, inline: String?, scanner: inout ArgumentScanner
  ) throws(UsageError) {
    func flag() throws(UsageError) {
      if inline != nil { throw .unexpectedValue(option) }
    }
    switch option {
    case "--prompt":
      text = try scanner.value(of: option, inline: inline, describedAs: "the prompt's text")
    case "--timeout":
      timeout = try scanner.seconds(of: option, inline: inline, examples: "30 or 2.5")
    case "--stdin":
      try flag()
      passwordSources.append(.standardInput)
    case "--password-from":
      let value = try scanner.value(
        of: option, inline: inline, describedAs: "a source such as env:VAR or file:PATH")
      do {
        passwordSources.append(try SecretSource(specification: value))
      } catch {
        throw UsageError(.invalidValue, "--password-from: \(error.description)")
      }
    case "--no-prompt":
      try flag()
      promptsWhenNoneSet = false
    case "--no-reveal":
      try flag()
      allowsReveal = false
    case "--no-echo":
      try flag()
      echoes = false
    case "--mask":
      let value = try scanner.value(of: option, inline: inline, describedAs: "one character")
      guard value.count == 1, let glyph = value.first,
        glyph.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) }),
        glyph.unicodeScalars.reduce(0, { $0 + CharacterWidth.columns(of: $1) }) > 0
      else {
        throw .invalidValue(option, value, "one visible character, such as '*' or '#'")
      }
      maskGlyph = glyph
    case "--min-length":
      let value = try scanner.value(of: option, inline: inline, describedAs: "a number")
      guard let number = Int(value), number >= 0, number <= 1024 else {
        throw .invalidValue(option, value, "a whole number from 0 to 1024")
      }
      minimumLength = number
      minimumLengthGiven = true
    default:
      throw .unknownOption(option)
    }
  }

  /// Checks that the options go together.
  ///
  /// - Parameters:
  ///   - confirms: the command asks twice.
  ///   - judges: the command judges a new password, whatever its source, so
  ///     `--min-length` holds for a line from standard input too.
  func validate(confirms: Bool, judges: Bool = false) throws(UsageError) {
    if readsStandardInput {
      if confirms {
        throw .conflicting(
          "--stdin", "--confirm", "confirmation asks on the terminal; give the line once")
      }
      if minimumLength > 0 && !judges {
        throw .conflicting(
          "--stdin", "--min-length", "the line from standard input is taken as it is")
      }
    }
    if !promptsWhenNoneSet && passwordSources.isEmpty {
      throw UsageError(
        .missingArgument,
        "--no-prompt needs a --password-from source (or --stdin) to take the password from")
    }
    if !echoes && maskGlyph != nil {
      throw .conflicting("--no-echo", "--mask", "with --no-echo nothing is shown to mask")
    }
  }

  /// True when no `--password-from` source is set and the prompt asks on
  /// the terminal.
  var asksOnTerminal: Bool {
    promptsWhenNoneSet && !passwordSources.contains(where: \.isSet)
  }

  /// The prompt these options ask for.
  func configuration(
    defaultPrompt: String, confirmation: PromptConfiguration.Confirmation?,
    context: CommandContext
  ) -> PromptConfiguration {
    var configuration = PromptConfiguration(prompt: text ?? defaultPrompt)
    configuration.storage = ToolMemory.storage
    configuration.timeout = timeout
    configuration.allowsReveal = allowsReveal
    configuration.echo = echoes ? .masked(glyph: maskGlyph) : .silent
    configuration.minimumLength = minimumLength
    configuration.confirmation = confirmation
    configuration.terminalPath = context.terminalPath
    return configuration
  }
}
