import Glibc

/// A change of state of the program under test, as `waitpid` with `WUNTRACED`
/// and `WCONTINUED` reports it to its parent (the session leader).
public enum ProcessStatus: Equatable, Sendable, CustomStringConvertible {
  /// It exited with this status.
  case exited(Int32)
  /// A signal ended it.
  case signaled(Int32)
  /// A signal stopped it.
  case stopped(Int32)
  /// `SIGCONT` continued it.
  case continued

  /// True when the program has ended.
  public var hasEnded: Bool {
    switch self {
    case .exited, .signaled: true
    case .stopped, .continued: false
    }
  }

  /// How the process ended or paused, in words.
  public var description: String {
    switch self {
    case .exited(let status): "exited(\(status))"
    case .signaled(let signal): "signaled(\(String(cString: strsignal(signal))))"
    case .stopped(let signal): "stopped(\(String(cString: strsignal(signal))))"
    case .continued: "continued"
    }
  }
}
