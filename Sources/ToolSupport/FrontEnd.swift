import SecureMemory
import SystemCalls

/// Where a tool that can ask on the terminal or in a window asks: the one
/// choice `secretfield-askpass` and `secretfield credential get` share.
///
/// The window is its own program, `secretfield-window`, installed beside the
/// terminal tools; a tool that chooses it becomes that program (`execv`), so
/// the answer is asked for and written in the same process and crosses no
/// pipe between the two.
package enum FrontEnd: Sendable, Hashable {
  /// On the terminal (`/dev/tty`).
  case terminal
  /// In a window: `secretfield-window`, which the process becomes.
  case window

  /// The window program's name; it is looked for beside this executable.
  package static let windowProgramName = "secretfield-window"

  /// The window program beside this executable, if it is there.
  package static var windowProgram: String? {
    guard let directory = System.executableDirectory() else { return nil }
    let path = directory + "/" + windowProgramName
    return System.isExecutable(path) ? path : nil
  }

  /// The values a front-end variable takes.
  package static let choices = ["terminal", "window"]

  /// Where to ask: `variable`'s value when it says `terminal` or `window`;
  /// unset or empty, the window when the terminal cannot be opened, a
  /// display is named (`DISPLAY` or `WAYLAND_DISPLAY`, not empty) and the
  /// window program is installed beside this one; else the terminal.
  ///
  /// - Throws: ``UsageError`` (`invalidValue`) naming the variable and the
  ///   values it takes, when it holds anything else: a misspelt choice is
  ///   said, never taken for the automatic one.
  package static func choose(
    variable: String, in context: CommandContext,
    windowProgramExists: () -> Bool = { windowProgram != nil },
    terminalOpens: (String) -> Bool = System.canOpenTerminal
  ) throws(UsageError) -> FrontEnd {
    switch context.environmentValue(variable) {
    case "terminal": return .terminal
    case "window": return .window
    case nil, ""?: break
    case let value?:
      throw UsageError(
        .invalidValue,
        "\(variable)=\(value) is not a front end: set it to terminal or window, or unset it "
          + "to ask in a window only when there is no terminal and there is a display")
    }
    let hasDisplay = ["DISPLAY", "WAYLAND_DISPLAY"].contains {
      context.environmentValue($0).map { !$0.isEmpty } == true
    }
    guard hasDisplay, !terminalOpens(context.terminalPath), windowProgramExists() else {
      return .terminal
    }
    return .window
  }

  /// Becomes `secretfield-window ARGUMENTS` (`execv`, the environment and
  /// the standard streams kept). Returns only when that failed, with the
  /// message printed on `context`'s standard error; `variable` names what
  /// asked for the window, in the message when the program is missing.
  package static func openWindow(
    _ arguments: [String], variable: String, context: CommandContext
  ) -> ExitStatus {
    guard let program = windowProgram else {
      context.printError(
        "\(variable)=window, but \(windowProgramName) is not installed beside "
          + "\(context.toolName) (it comes in the secretfield-window package)")
      return .cancelled
    }
    let failure = System.replaceProcess(with: program, arguments: [windowProgramName] + arguments)
    context.printError("cannot run \(program): \(failure)")
    return .cancelled
  }
}
