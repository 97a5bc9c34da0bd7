import SecureMemory
import SystemCalls
/// Where a command reads and writes: the standard streams and the terminal.
///
/// The defaults are the process's own; tests and embedding programs pass
/// others.
package struct CommandContext: Sendable {
  /// Where `--stdin` reads the secret.
  package var standardInput: Int32 = 0
  /// Where the secret (or a hash) goes.
  package var standardOutput: Int32 = 1
  /// Where messages go.
  package var standardError: Int32 = 2
  /// The terminal to prompt on.
  package var terminalPath = "/dev/tty"
  /// The tool's name, as messages start with it.
  package var toolName = "secretfield"
  /// Reads a variable of the environment (`getenv`); tests pass their own.
  package var environmentValue: @Sendable (String) -> String? = { System.environmentValue($0) }
  /// The name of the program that started this one (`/proc/PPID/comm`), or nil
  /// when it cannot be read; tests pass their own.
  package var parentProcessName: @Sendable () -> String? = { System.parentProcessName() }

  /// The process's own streams, environment and controlling terminal.
  package init() {}

  /// The process's own streams, environment and controlling terminal, for the
  /// tool named `toolName`.
  package init(toolName: String) {
    self.toolName = toolName
  }

  /// Writes `text` to standard output. Never a secret.
  ///
  /// - Returns: the errno when it could not be written (`EPIPE`: the reader
  ///   is gone), nil when it was.
  @discardableResult
  package func printOutput(_ text: String) -> Int32? {
    System.write(text, to: standardOutput)
  }

  /// Writes `message` and a newline to standard error, after the tool's name
  /// (and the command's, when given).
  package func printError(_ message: String, command: String? = nil) {
    let prefix = command.map { "\(toolName) \($0): " } ?? "\(toolName): "
    System.write(prefix + message + "\n", to: standardError)
  }

  /// Writes `error` to standard error as ``printError(_:command:)`` does,
  /// and where to read of the options (`Run 'helpCommand --help' ...`).
  ///
  /// - Returns: ``ExitStatus/usageError``, the status to exit with.
  package func printUsageError(
    _ error: UsageError, command: String, helpCommand: String
  ) -> ExitStatus {
    printError(
      "\(error.description)\nRun '\(helpCommand) --help' for its options.", command: command)
    return .usageError
  }

  /// True when standard output is a terminal.
  package var standardOutputIsTerminal: Bool { System.isTerminal(standardOutput) }
}
