package import SecureMemory
package import ToolSupport

/// A command of a tool (`secretfield prompt`): its name and help, its
/// arguments parsed into a value, and a run that returns an exit status.
///
/// Commands never call `exit`: the executable does, with the status ``run(in:)``
/// returns. `--help` and `--version` are answered by ``SecretFieldTool`` before
/// a command is made, for every command.
package protocol Command: Sendable {
  /// The word after the tool's name.
  static var name: String { get }
  /// One line for the tool's list of commands.
  static var summary: String { get }
  /// The text `--help` prints: usage, options, exit statuses.
  static var help: String { get }

  /// Parses the arguments after the command's name.
  ///
  /// - Throws: ``UsageError`` that says what is wrong and what to do instead.
  init(arguments: [String]) throws(UsageError)

  /// Does the work; what it prints goes to `context`'s streams.
  func run(in context: CommandContext) -> ExitStatus
}

extension Command {
  /// Parses `arguments` and runs the command; a usage error is printed with a
  /// pointer to `--help` and ends in ``ExitStatus/usageError``.
  ///
  /// - Parameter hardening: what the process's hardening achieved; a warning
  ///   is printed before running when it is incomplete.
  package static func parseAndRun(
    _ arguments: [String], context: CommandContext, hardening: HardeningReport?
  ) -> ExitStatus {
    let command: Self
    do {
      command = try Self(arguments: arguments)
    } catch {
      return context.printUsageError(error, command: name, helpCommand: "secretfield \(name)")
    }
    if let hardening, !hardening.isComplete {
      context.printError("warning: the process is only partly hardened: \(hardening)")
    }
    return command.run(in: context)
  }
}
