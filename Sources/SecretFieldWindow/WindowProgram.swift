import SecureMemory
import ToolSupport

/// `secretfield-window`: the GTK front ends, one subcommand each. Not linked
/// by any library product or by the terminal tools: `secretfield-askpass`
/// replaces itself with this program (`execve`) when it has no terminal and
/// there is a display.
package enum WindowProgram {
  /// The text of `--help`.
  static let help = """
    Usage: secretfield-window askpass [--timeout S] [--] [PROMPT]
           secretfield-window pinentry [OPTIONS]
           secretfield-window credential [OPTIONS] get|store|erase
           secretfield-window --help | --version

    The window front end of SecretField: the password field drawn from its
    secure memory, never held by a GTK widget. See secretfield-window askpass
    --help, secretfield-window pinentry --help and secretfield-window
    credential --help.
    """

  /// Starts the process as every tool does (``ProcessStart``), runs the
  /// subcommand `arguments` name, and exits with its status.
  package static func main(_ arguments: [String]) -> Never {
    ProcessStart.run { hardening in run(arguments, hardening: hardening) }
  }

  /// Runs the subcommand `arguments` name and returns its status.
  static func run(_ arguments: [String], hardening: HardeningReport) -> ExitStatus {
    let context = CommandContext(toolName: "secretfield-window")
    if !hardening.isComplete {
      context.printError("warning: the process is only partly hardened: \(hardening)")
    }
    switch arguments.first {
    case "askpass":
      return WindowAskpass.run(Array(arguments.dropFirst()), context: context)
    case "pinentry":
      return WindowPinentryCommand.run(Array(arguments.dropFirst()), context: context)
    case "credential":
      return WindowCredentialCommand.run(Array(arguments.dropFirst()), context: context)
    case "--help", "-h":
      context.printOutput(help + "\n")
      return .success
    case "--version":
      context.printOutput("secretfield-window \(ToolVersion.current)\n")
      return .success
    default:
      context.printError("unknown subcommand; see --help")
      return .usageError
    }
  }
}
