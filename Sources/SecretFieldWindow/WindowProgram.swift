import Glibc
import SecretFieldCLI
import SecureMemory

/// `secretfield-window`: the GTK front ends, one subcommand each. Not linked
/// by any library product or by the terminal tools: `secretfield-askpass`
/// replaces itself with this program (`execve`) when it has no terminal and
/// there is a display.
package enum WindowProgram {
  /// The text of `--help`.
  static let help = """
    Usage: secretfield-window askpass [--timeout S] [--] [PROMPT]
           secretfield-window pinentry [OPTIONS]
           secretfield-window --help | --version

    The window front end of SecretField: the password field drawn from its
    secure memory, never held by a GTK widget. See secretfield-window askpass
    --help and secretfield-window pinentry --help.
    """

  /// Hardens the process, runs the subcommand `arguments` name, and exits
  /// with its status.
  package static func main(_ arguments: [String]) -> Never {
    let context = CommandContext(toolName: "secretfield-window")
    let hardening = ProcessHardening.apply()
    if !hardening.isComplete {
      context.printError("warning: the process is only partly hardened: \(hardening)")
    }
    let status: ExitStatus
    switch arguments.first {
    case "askpass":
      status = WindowAskpass.run(Array(arguments.dropFirst()), context: context)
    case "pinentry":
      status = WindowPinentryCommand.run(Array(arguments.dropFirst()), context: context)
    case "--help", "-h":
      context.printOutput(help + "\n")
      status = .success
    case "--version":
      context.printOutput("secretfield-window \(SecretFieldTool.version)\n")
      status = .success
    default:
      context.printError("unknown subcommand; see --help")
      status = .usageError
    }
    exit(status.code)
  }
}
