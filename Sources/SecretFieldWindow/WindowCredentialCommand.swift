import SecureMemory
import ToolSupport

/// `secretfield-window credential [OPTIONS] get|store|erase`: git's
/// credential helper (`CredentialCommand`, as `secretfield credential` runs
/// it) asking in a window (``WindowCredentialAsker``). `secretfield
/// credential get` becomes this program when there is no terminal and there
/// is a display.
enum WindowCredentialCommand {
  /// Runs the helper with `arguments` (those after `credential`).
  static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
    if ArgumentScanner.contains(["-h", "--help"], in: arguments) {
      context.printOutput(CredentialCommand.help + "\n")
      return .success
    }
    var command: CredentialCommand
    do {
      command = try CredentialCommand(arguments: arguments)
    } catch {
      return context.printUsageError(
        error, command: CredentialCommand.name, helpCommand: "secretfield-window credential")
    }
    command.asker = WindowCredentialAsker()
    return command.run(in: context)
  }
}
