import Glibc

/// A signal the prompt relays into its main loop, and what a prompt does about it.
package struct TerminalSignal: Hashable, Sendable, CustomStringConvertible {
  /// The signal number, as `kill(2)` takes it.
  package let number: Int32

  /// A signal by number.
  package init(number: Int32) { self.number = number }

  /// `SIGINT`: interrupt from the keyboard or `kill -INT`.
  package static let interrupt = TerminalSignal(number: SIGINT)
  /// `SIGTERM`: a polite request to end.
  package static let terminate = TerminalSignal(number: SIGTERM)
  /// `SIGHUP`: the terminal hung up.
  package static let hangUp = TerminalSignal(number: SIGHUP)
  /// `SIGQUIT`.
  package static let quit = TerminalSignal(number: SIGQUIT)
  /// `SIGALRM`: a timer someone set ran out.
  package static let alarm = TerminalSignal(number: SIGALRM)
  /// `SIGPIPE`: the reader of standard output went away.
  package static let brokenPipe = TerminalSignal(number: SIGPIPE)
  /// `SIGTSTP`: a request to stop (suspend) from the terminal or `kill -TSTP`.
  package static let terminalStop = TerminalSignal(number: SIGTSTP)
  /// `SIGTTIN`: a background process read from the terminal.
  package static let backgroundRead = TerminalSignal(number: SIGTTIN)
  /// `SIGTTOU`: a background process changed the terminal's modes.
  package static let backgroundWrite = TerminalSignal(number: SIGTTOU)
  /// `SIGCONT`: the process was continued after a stop.
  package static let `continue` = TerminalSignal(number: SIGCONT)
  /// `SIGWINCH`: the terminal changed size.
  package static let windowChange = TerminalSignal(number: SIGWINCH)

  /// `SIGUSR1`.
  package static let user1 = TerminalSignal(number: SIGUSR1)
  /// `SIGUSR2`.
  package static let user2 = TerminalSignal(number: SIGUSR2)
  /// `SIGVTALRM`: a virtual timer ran out.
  package static let virtualAlarm = TerminalSignal(number: SIGVTALRM)
  /// `SIGPROF`: a profiling timer ran out.
  package static let profilingAlarm = TerminalSignal(number: SIGPROF)
  /// `SIGXCPU`: the CPU time limit was passed.
  package static let cpuLimit = TerminalSignal(number: SIGXCPU)
  /// `SIGXFSZ`: the file size limit was passed.
  package static let fileSizeLimit = TerminalSignal(number: SIGXFSZ)
  /// `SIGPWR`: power failure.
  package static let power = TerminalSignal(number: SIGPWR)
  /// `SIGSTKFLT`: coprocessor stack fault (unused by Linux, but fatal).
  package static let stackFault = TerminalSignal(number: SIGSTKFLT)
  /// `SIGIO` (`SIGPOLL`): I/O possible, fatal by default.
  package static let io = TerminalSignal(number: SIGIO)

  /// The real-time signals this process may own, `SIGRTMIN` through
  /// `SIGRTMAX`, whose default action ends the process.
  ///
  /// Asked of the C library at run time (`__libc_current_sigrtmin`,
  /// `__libc_current_sigrtmax`, what the `SIGRTMIN` and `SIGRTMAX` macros
  /// expand to): glibc keeps the first two or three of the kernel's for its
  /// threads (cancellation, `setxid`), so the range does not start at 32.
  /// Catching one of those would break the C library.
  package static let realTime: [TerminalSignal] = {
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
  package static let fatal: [TerminalSignal] =
    [
      .interrupt, .terminate, .hangUp, .quit, .alarm, .brokenPipe, .user1, .user2,
      .virtualAlarm, .profilingAlarm, .cpuLimit, .fileSizeLimit, .power, .stackFault, .io,
    ] + realTime

  /// Every signal a prompt relays: the fatal ones, the job-control stops,
  /// continue and window change.
  package static let relayed: [TerminalSignal] =
    fatal + [.terminalStop, .backgroundRead, .backgroundWrite, .continue, .windowChange]

  /// What a prompt does when the signal arrives.
  package enum Response: Sendable, Hashable {
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
  package var response: Response {
    switch number {
    case SIGTSTP, SIGTTIN, SIGTTOU: .stop
    case SIGCONT: .resume
    case SIGWINCH: .resize
    default: .die
    }
  }

  /// The signal's name, as in `SIGINT`; a real-time one as `SIGRTMIN+3` (or
  /// `SIGRTMAX`), counted from this process's `SIGRTMIN`.
  package var description: String {
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
