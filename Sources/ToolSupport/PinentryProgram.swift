package import Pinentry
package import PinentryTerminal
package import SecureMemory
import SecretFieldTerminal
import SystemCalls

/// `pinentry-secretfield`: the Assuan session on standard input and output,
/// with ``TerminalPinentry`` asking on the terminal.
///
/// The executable is a few lines: harden the process, call
/// ``run(_:hardening:)``, exit with its status.
///
/// Arguments, as pinentry takes them (gpg-agent passes `--display` when it
/// knows one, and users pass the others when they test by hand):
/// `--ttyname`/`-T`, `--ttytype`/`-N`, `--lc-ctype`/`-C`, `--lc-messages`/`-M`
/// set what the matching `OPTION` sets, until the client sends its own;
/// `--timeout`/`-o` seconds is `SETTIMEOUT`'s default; `--display`/`-D` sets what `OPTION display` sets (a window front end's
/// display; the terminal ignores it); `--debug`/`-d`, `--no-global-grab`/`-g`,
/// `--parent-wid`/`-W` and `--colors`/`-c` are taken and ignored, so a
/// client's arguments never stop the program. `--help` and `--version` print
/// and exit.
package enum PinentryProgram {
  /// The program's name.
  static let name = "pinentry-secretfield"

  /// The text of `pinentry-secretfield --help`.
  static var help: String {
    """
    Usage: pinentry-secretfield [OPTIONS]

    A pinentry for gpg-agent: speaks Assuan on standard input and output and
    asks for passphrases on the terminal named by the client (GPG_TTY), keeping
    them in locked, guarded, zeroed memory. Put its path in gpg-agent.conf:

      pinentry-program /path/to/pinentry-secretfield

    Options (the client's OPTION commands override them):
    \(optionsHelp)

    """
  }

  /// The options every pinentry of the package takes, as `--help` lists
  /// them under "Options".
  package static let optionsHelp = """
      -T, --ttyname FILE       the terminal to ask on (default: /dev/tty)
      -N, --ttytype TYPE       the terminal's type
      -C, --lc-ctype LOCALE    the terminal's character set
      -M, --lc-messages LOCALE the language of messages
      -o, --timeout SECONDS    give up after this long (default: never)
      -h, --help               show this help
          --version            show the version
    """

  /// Options that take a value and only change what a client may set.
  private static let valueOptions: [String: String] = [
    "-T": "--ttyname", "--ttyname": "--ttyname", "-N": "--ttytype", "--ttytype": "--ttytype",
    "-C": "--lc-ctype", "--lc-ctype": "--lc-ctype", "-M": "--lc-messages",
    "--lc-messages": "--lc-messages", "-o": "--timeout", "--timeout": "--timeout",
    "-D": "--display", "--display": "--display", "-W": "--parent-wid",
    "--parent-wid": "--parent-wid", "-c": "--colors", "--colors": "--colors",
  ]

  /// Runs the program: parses `arguments` (without the program's name), sets
  /// up the process's signals, serves the client on standard input and
  /// output, and returns the status to exit with.
  ///
  /// Signals: HUP, INT, TERM, QUIT, ALRM and WINCH are set to their default
  /// actions and unblocked, whatever the parent left (gpg-agent cancels a
  /// pinentry with `SIGINT`, and a thread of a multi-threaded parent may have
  /// them blocked), so the prompt's relay sees them. `SIGPIPE` is ignored, so a client that went away makes a write
  /// fail (the session then ends) instead of killing the process in the middle
  /// of it. `SIGTSTP`, `SIGTTIN`, `SIGTTOU` and `SIGCONT` are ignored too: the
  /// pinentry is no job of the terminal's shell, nothing would continue it,
  /// and the terminal it asks on is not its controlling terminal.
  ///
  /// - Returns: 0 when the client said `BYE`, closed the connection, or the
  ///   user cancelled fully; 1 when the connection failed (the reason on
  ///   standard error); 2 for an argument it cannot use.
  package static func run(_ arguments: [String], hardening: HardeningReport? = nil) -> ExitStatus {
    run(arguments, hardening: hardening, name: name, help: help) { terminal in terminal }
  }

  /// Runs a pinentry as ``run(_:hardening:)`` does, named `name` in its
  /// messages and printing `help` for `--help`, with the interface
  /// `makeInterface` makes from the terminal interface `pinentry-secretfield`
  /// uses: a front end that falls back to the terminal wraps it.
  package static func run<Interface: PinentryInterface>(
    _ arguments: [String], hardening: HardeningReport? = nil, name: String, help: String,
    makeInterface: (consuming TerminalPinentry) -> Interface
  ) -> ExitStatus {
    var settings = PinentrySettings()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      var (key, value) = (argument, String?.none)
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        key = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      }
      switch key {
      case "-h", "--help":
        System.write(help, to: 1)
        return .success
      case "--version":
        System.write("\(name) \(PinentrySession<TerminalPinentry>.packageVersion)\n", to: 1)
        return .success
      default:
        break
      }
      guard let option = valueOptions[key] else { continue }
      if value == nil {
        guard index < arguments.count else {
          System.write("\(name): \(argument) needs a value; see '\(name) --help'\n", to: 2)
          return .usageError
        }
        value = arguments[index]
        index += 1
      }
      apply(option, value ?? "", to: &settings)
    }
    if let hardening, !hardening.isComplete {
      System.write("\(name): warning: process hardening incomplete: \(hardening)\n", to: 2)
    }
    System.resetPromptSignals()
    for signal in System.jobControlAndPipeSignals { System.ignore(signal) }
    do {
      // Made before the first request, so that a GETPIN makes none of them; a
      // failure here is left to the first request, which tries again and
      // answers the client with the reason.
      let resources = try? TerminalPinentry.makeResources(storage: ToolMemory.storage)
      var session = try PinentrySession(
        input: 0, output: 1,
        interface: makeInterface(
          TerminalPinentry(clientOutput: 1, resources: resources, storage: ToolMemory.storage)),
        flavor: "secretfield", storage: ToolMemory.storage)
      session.settings = settings
      _ = try session.run()
      return .success
    } catch {
      System.write("\(name): \(error.description)\n", to: 2)
      return .cancelled
    }
  }

  /// What an argument sets, as the matching `OPTION` would.
  private static func apply(_ option: String, _ value: String, to settings: inout PinentrySettings)
  {
    switch option {
    case "--display": settings.environment.display = value.isEmpty ? nil : value
    case "--ttyname": settings.environment.ttyName = value.isEmpty ? nil : value
    case "--ttytype": settings.environment.ttyType = value.isEmpty ? nil : value
    case "--lc-ctype": settings.environment.lcCtype = value.isEmpty ? nil : value
    case "--lc-messages": settings.environment.lcMessages = value.isEmpty ? nil : value
    case "--timeout":
      settings.timeout = PinentrySession<TerminalPinentry>.timeout(from: value)
    default: break
    }
  }
}
