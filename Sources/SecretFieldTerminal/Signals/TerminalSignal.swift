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

  /// `SIGUSR1`.
  public static let user1 = TerminalSignal(number: SIGUSR1)
  /// `SIGUSR2`.
  public static let user2 = TerminalSignal(number: SIGUSR2)
  /// `SIGVTALRM`: a virtual timer ran out.
  public static let virtualAlarm = TerminalSignal(number: SIGVTALRM)
  /// `SIGPROF`: a profiling timer ran out.
  public static let profilingAlarm = TerminalSignal(number: SIGPROF)
  /// `SIGXCPU`: the CPU time limit was passed.
  public static let cpuLimit = TerminalSignal(number: SIGXCPU)
  /// `SIGXFSZ`: the file size limit was passed.
  public static let fileSizeLimit = TerminalSignal(number: SIGXFSZ)
  /// `SIGPWR`: power failure.
  public static let power = TerminalSignal(number: SIGPWR)
  /// `SIGSTKFLT`: coprocessor stack fault (unused by Linux, but fatal).
  public static let stackFault = TerminalSignal(number: SIGSTKFLT)
  /// `SIGIO` (`SIGPOLL`): I/O possible, fatal by default.
  public static let io = TerminalSignal(number: SIGIO)

  /// The real-time signals this process may own, `SIGRTMIN` through
  /// `SIGRTMAX`, whose default action ends the process.
  ///
  /// Asked of the C library at run time (`__libc_current_sigrtmin`,
  /// `__libc_current_sigrtmax`, what the `SIGRTMIN` and `SIGRTMAX` macros
  /// expand to): glibc keeps the first two or three of the kernel's for its
  /// threads (cancellation, `setxid`), so the range does not start at 32.
  /// Catching one of those would break the C library.
  public static let realTime: [TerminalSignal] = {
    let first = __libc_current_sigrtmin()
    let last = __libc_current_sigrtmax()
    guard first > 0, last >= first else { return [] }
    return (first...last).map(TerminalSignal.init(number:))
  }()

  /// The catchable signals whose default action ends the process, so a prompt
  /// must restore the terminal before it dies of them (`signal(7)`: Term and
  /// Core), the ``realTime`` ones included. The faults (SEGV, BUS, ILL, FPE,
  /// ABRT, TRAP, SYS) are the ``FaultHandler``'s: a real fault cannot wait for
  /// the main loop.
  public static let fatal: [TerminalSignal] =
    [
      .interrupt, .terminate, .hangUp, .quit, .alarm, .brokenPipe, .user1, .user2,
      .virtualAlarm, .profilingAlarm, .cpuLimit, .fileSizeLimit, .power, .stackFault, .io,
    ] + realTime

  /// Every signal a prompt relays: the fatal ones, the job-control stops,
  /// continue and window change.
  public static let relayed: [TerminalSignal] =
    fatal + [.terminalStop, .backgroundRead, .backgroundWrite, .continue, .windowChange]

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

  /// The signal's name, as in `SIGINT`; a real-time one as `SIGRTMIN+3` (or
  /// `SIGRTMAX`), counted from this process's `SIGRTMIN`.
  public var description: String {
    if let first = Self.realTime.first, let last = Self.realTime.last,
      (first.number...last.number).contains(number)
    {
      return number == last.number
        ? "SIGRTMAX" : number == first.number ? "SIGRTMIN" : "SIGRTMIN+\(number - first.number)"
    }
    let names: [Int32: String] = [
      SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
      SIGALRM: "SIGALRM", SIGPIPE: "SIGPIPE", SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN",
      SIGTTOU: "SIGTTOU", SIGCONT: "SIGCONT", SIGWINCH: "SIGWINCH", SIGUSR1: "SIGUSR1",
      SIGUSR2: "SIGUSR2", SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF", SIGXCPU: "SIGXCPU",
      SIGXFSZ: "SIGXFSZ", SIGPWR: "SIGPWR", SIGSTKFLT: "SIGSTKFLT", SIGIO: "SIGIO",
    ]
    return names[number] ?? "signal \(number)"
  }
}
