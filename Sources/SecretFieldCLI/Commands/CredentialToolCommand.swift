import ToolSupport

/// `secretfield credential` as the tool runs it: the shared
/// `CredentialCommand`, which the window program runs too, told that `get`
/// may become the window program when there is no terminal and there is a
/// display.
struct CredentialToolCommand: Command {
  static var name: String { CredentialCommand.name }
  static var summary: String { CredentialCommand.summary }
  static var help: String { CredentialCommand.help }

  /// The command, with its window hand-over on.
  var command: CredentialCommand

  init(arguments: [String]) throws(UsageError) {
    command = try CredentialCommand(arguments: arguments)
    command.opensWindowWithoutTerminal = true
  }

  func run(in context: CommandContext) -> ExitStatus { command.run(in: context) }
}
