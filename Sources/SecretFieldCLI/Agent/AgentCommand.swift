package import PasswordAgent
import SecretFieldTerminal
import SystemCalls
package import ToolSupport

/// `secretfield agent`: answers the password requests of systemd and its
/// tools (`systemd-ask-password`, `cryptsetup` units, `systemctl start`) on
/// the terminal, with the whole field, in place of
/// `systemd-tty-ask-password-agent`.
///
/// The protocol is `PasswordAgent`'s; this command is the terminal side: each
/// request is a ``SecretFieldTerminal/PasswordPrompt`` with the request's
/// message, and the answer goes from the prompt's secure memory straight to
/// the asker's socket.
package struct AgentCommand: Command {
  /// What the agent does.
  package enum Mode: Sendable, Hashable {
    /// Ask what is waiting, then exit (`--query`, the default).
    case query
    /// Keep asking as requests come, until ended (`--watch`).
    case watch
    /// Print what is waiting (`--list`).
    case list
  }

  /// `agent`.
  package static let name = "agent"
  /// One line for the tool's list.
  package static let summary = "answer systemd's password requests on the terminal"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield agent [--query | --watch | --list] [--console[=DEVICE]] [--user]

    Answers the password requests that systemd and its tools leave in
    /run/systemd/ask-password/ (an encrypted disk, systemd-ask-password in a
    unit, systemctl start), asking each on the terminal with the request's
    message, oldest first, and sending the answer to the asking program.

      secretfield agent --query      # while a disk waits to be unlocked

    Options:
      --query            ask what is waiting now, then exit (the default)
      --watch            keep asking as requests come, until ended
      --list             print what is waiting: message, PID, id, time left
      --console[=DEVICE] ask on /dev/console, or on DEVICE, instead of /dev/tty
      --user             the user's requests ($XDG_RUNTIME_DIR/systemd/ask-password/)

    Keys: as secretfield prompt (Tab shows or hides the typing); Esc declines the
    request (the asker is told) and goes on to the next; ^C declines and stops.
    A request whose file is removed or whose time runs out while asked is
    withdrawn. Files that are not requests, or whose socket is not where it may
    be, are skipped with a line on standard error.

    Exit status: 0 done; 1 a request was declined, or the directory cannot be
    read; 2 usage error; 3 no terminal to ask on. A signal (INT, TERM, HUP) ends
    it by that signal, after the terminal is restored.
    """

  /// What to do.
  package var mode = Mode.query
  /// The terminal to ask on instead of the controlling one (`--console`).
  package var consolePath: String?
  /// The user's directory instead of the system's (`--user`).
  package var usesUserDirectory = false

  /// The defaults: `--query` on the controlling terminal, the system's requests.
  init() {}

  /// Parses the options.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    var modeOption: String?
    while let item = scanner.next() {
      switch item {
      case .option("--console", let inline):
        consolePath = inline ?? "/dev/console"
        if consolePath?.isEmpty == true {
          throw .invalidValue("--console", "", "a terminal device, as in --console=/dev/tty1")
        }
      case .option("--user", let inline):
        if inline != nil { throw .unexpectedValue("--user") }
        usesUserDirectory = true
      case .option(let name, let inline) where ["--query", "--watch", "--list"].contains(name):
        if inline != nil { throw .unexpectedValue(name) }
        let chosen: Mode = name == "--query" ? .query : name == "--watch" ? .watch : .list
        if let modeOption, chosen != mode {
          throw .conflicting(modeOption, name, "choose one of --query, --watch and --list")
        }
        modeOption = name
        mode = chosen
      case .option(let name, _):
        throw .unknownOption(name)
      case .argument(let word):
        throw .unexpectedArgument(word, "the agent takes options only")
      }
    }
  }

  /// The directory this agent answers, from `context`'s environment for
  /// `--user`; nil when `XDG_RUNTIME_DIR` is not set.
  package func directory(in context: CommandContext) -> RequestDirectory? {
    guard usesUserDirectory else { return .system }
    guard let runtime = context.environmentValue("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else {
      return nil
    }
    return .user(runtimeDirectory: runtime)
  }

  /// Runs the mode.
  package func run(in context: CommandContext) -> ExitStatus {
    guard let directory = directory(in: context) else {
      context.printError(
        "--user needs XDG_RUNTIME_DIR set to your runtime directory (as /run/user/1000)",
        command: Self.name)
      return .cancelled
    }
    if mode != .list { System.resetPromptSignals() }
    var session = AgentSession(
      context: context, directory: directory, terminalPath: consolePath ?? context.terminalPath,
      allowsSuspend: consolePath == nil)
    switch mode {
    case .list: return session.list()
    case .query: return session.query()
    case .watch: return session.watch()
    }
  }
}
