import SecureMemory
import SystemCalls
import ToolSupport

/// The `secretfield` tool: finds the command, answers `--help` and
/// `--version`, runs the command and returns its exit status.
///
/// The executable is a few lines: harden the process, call ``run(_:context:hardening:)``,
/// exit with its status.
package enum SecretFieldTool {
  /// The tool's name.
  static let name = "secretfield"
  /// The package's version; `secretfield-window --version` prints it too.
  package static let version = ToolVersion.current
  /// The commands, in the order `--help` lists them.
  static let commands: [any Command.Type] = [
    PromptCommand.self, HashCommand.self, VerifyCommand.self, StrengthCommand.self,
    AgentCommand.self, CredentialToolCommand.self, ForgetCommand.self, DoctorCommand.self,
  ]

  /// The text of `secretfield --help`.
  static var overview: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let list = commands.map {
      "  \($0.name)" + String(repeating: " ", count: width - $0.name.count + 3) + $0.summary
    }
    return """
      Usage: secretfield COMMAND [OPTIONS] [ARGUMENTS]

      Asks for passwords on the terminal, keeping them in locked, guarded,
      zeroed memory from the first keystroke to the last use.

      Commands:
      \(list.joined(separator: "\n"))

      Run 'secretfield COMMAND --help' for a command's options.
        -h, --help     show this help
        --version      show the version

      """
  }

  /// Runs the command `arguments` name (the arguments after the tool's name).
  ///
  /// - Parameters:
  ///   - arguments: the command's name and its arguments.
  ///   - context: the streams and terminal to use.
  ///   - hardening: what ``SecureMemory/ProcessHardening/apply()`` achieved,
  ///     for a warning when it is incomplete.
  /// - Returns: the status to exit with.
  static func run(
    _ arguments: [String], context: CommandContext = CommandContext(),
    hardening: HardeningReport? = nil
  ) -> ExitStatus {
    guard let first = arguments.first else {
      context.printError(
        "no command given; run 'secretfield prompt' to ask for a password, "
          + "or 'secretfield --help' for the commands")
      return .usageError
    }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help":
      context.printOutput(overview)
      return .success
    case "--version":
      context.printOutput("\(name) \(version)\n")
      return .success
    case "help":
      guard let topic = rest.first else {
        context.printOutput(overview)
        return .success
      }
      guard let command = command(named: topic) else { return unknownCommand(topic, context) }
      context.printOutput(command.help + "\n")
      return .success
    default:
      break
    }
    guard let command = command(named: first) else { return unknownCommand(first, context) }
    if ArgumentScanner.contains(["-h", "--help"], in: rest) {
      context.printOutput(command.help + "\n")
      return .success
    }
    if ArgumentScanner.contains(["--version"], in: rest) {
      // Under the name it was started by: git-credential-secretfield.
      context.printOutput("\(context.toolName) \(version)\n")
      return .success
    }
    return command.parseAndRun(rest, context: context, hardening: hardening)
  }

  private static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  private static func unknownCommand(_ name: String, _ context: CommandContext) -> ExitStatus {
    let names = commands.map { $0.name }.joined(separator: ", ")
    context.printError(
      "unknown command '\(name)'; the commands are \(names) (see 'secretfield --help')")
    return .usageError
  }

  /// Ends the process with `status` (`exit(3)`): for the executable's last line.
  static func exit(_ status: ExitStatus) -> Never {
    System.exit(status.code)
  }
}
