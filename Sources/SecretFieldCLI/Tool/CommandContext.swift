/// Where a command reads and writes: the standard streams and the terminal.
///
/// The defaults are the process's own; tests and embedding programs pass
/// others.
public struct CommandContext: Sendable {
  /// Where `--stdin` reads the secret.
  public var standardInput: Int32 = 0
  /// Where the secret (or a hash) goes.
  public var standardOutput: Int32 = 1
  /// Where messages go.
  public var standardError: Int32 = 2
  /// The terminal to prompt on.
  public var terminalPath = "/dev/tty"
  /// The tool's name, as messages start with it.
  public var toolName = "secretfield"
  /// Reads a variable of the environment (`getenv`); tests pass their own.
  public var environmentValue: @Sendable (String) -> String? = { System.environmentValue($0) }
  /// The name of the program that started this one (`/proc/PPID/comm`), or nil
  /// when it cannot be read; tests pass their own.
  public var parentProcessName: @Sendable () -> String? = { System.parentProcessName() }

  /// The process's own streams, environment and controlling terminal.
  public init() {}

  /// The process's own streams, environment and controlling terminal, for the
  /// tool named `toolName`.
  public init(toolName: String) {
    self.toolName = toolName
  }

  /// Writes `text` to standard output. Never a secret.
  ///
  /// - Returns: the errno when it could not be written (`EPIPE`: the reader
  ///   is gone), nil when it was.
  @discardableResult
  public func printOutput(_ text: String) -> Int32? {
    System.write(text, to: standardOutput)
  }

  /// Writes `message` and a newline to standard error, after the tool's name
  /// (and the command's, when given).
  public func printError(_ message: String, command: String? = nil) {
    let prefix = command.map { "\(toolName) \($0): " } ?? "\(toolName): "
    System.write(prefix + message + "\n", to: standardError)
  }

  /// True when standard output is a terminal.
  public var standardOutputIsTerminal: Bool { System.isTerminal(standardOutput) }
}
