import Glibc

/// A signal the prompt relays into its main loop, and what a prompt does about it.
public struct TerminalSignal: Hashable, Sendable, CustomStringConvertible {
  /// The signal number, as `kill(2)` takes it.
  public let number: Int32

  /// A signal by number.
  public init(number: Int32) { self.number = number }

  /// `SIGINT`: interrupt from the keyboard or `kill -INT`.
  public static let interrupt = TerminalSignal(number: SIGINT)
  /// `SIGTERM`: a polite request to end.
  public static let terminate = TerminalSignal(number: SIGTERM)
  /// `SIGHUP`: the terminal hung up.
  public static let hangUp = TerminalSignal(number: SIGHUP)
  /// `SIGQUIT`.
  public static let quit = TerminalSignal(number: SIGQUIT)
  /// `SIGALRM`: a timer someone set ran out.
  public static let alarm = TerminalSignal(number: SIGALRM)
  /// `SIGPIPE`: the reader of standard output went away.
  public static let brokenPipe = TerminalSignal(number: SIGPIPE)
  /// `SIGTSTP`: a request to stop (suspend) from the terminal or `kill -TSTP`.
  public static let terminalStop = TerminalSignal(number: SIGTSTP)
  /// `SIGTTIN`: a background process read from the terminal.
  public static let backgroundRead = TerminalSignal(number: SIGTTIN)
  /// `SIGTTOU`: a background process changed the terminal's modes.
  public static let backgroundWrite = TerminalSignal(number: SIGTTOU)
  /// `SIGCONT`: the process was continued after a stop.
  public static let `continue` = TerminalSignal(number: SIGCONT)
  /// `SIGWINCH`: the terminal changed size.
  public static let windowChange = TerminalSignal(number: SIGWINCH)

  /// Every signal a prompt relays: the fatal ones, the job-control stops,
  /// continue and window change.
  public static let relayed: [TerminalSignal] = [
    .interrupt, .terminate, .hangUp, .quit, .alarm, .brokenPipe,
    .terminalStop, .backgroundRead, .backgroundWrite, .continue, .windowChange,
  ]

  /// What a prompt does when the signal arrives.
  public enum Response: Sendable, Hashable {
    /// Restore the terminal, wipe the secret, die by the same signal.
    case die
    /// Restore the terminal, stop; on continue enter raw mode again and redraw.
    case stop
    /// Enter raw mode again and redraw: the process was continued.
    case resume
    /// Redraw for the new size.
    case resize
  }

  /// What a prompt does with this signal, as OpenBSD's `readpassphrase` does.
  public var response: Response {
    switch number {
    case SIGTSTP, SIGTTIN, SIGTTOU: .stop
    case SIGCONT: .resume
    case SIGWINCH: .resize
    default: .die
    }
  }

  /// The signal's name, as in `SIGINT`.
  public var description: String {
    let names: [Int32: String] = [
      SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
      SIGALRM: "SIGALRM", SIGPIPE: "SIGPIPE", SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN",
      SIGTTOU: "SIGTTOU", SIGCONT: "SIGCONT", SIGWINCH: "SIGWINCH",
    ]
    return names[number] ?? "signal \(number)"
  }
}
