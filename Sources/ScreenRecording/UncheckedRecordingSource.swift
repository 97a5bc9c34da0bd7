/// A place the recording detector could not look: each makes "not detected" a
/// weaker statement, and none is an error.
public enum UncheckedRecordingSource: Sendable, Hashable, CustomStringConvertible {
  /// The session leader of the terminal could not be found: the terminal is
  /// not this process's controlling terminal and no process has it as its own.
  case sessionLeader
  /// The environment of `process` could not be read (`/proc/PID/environ` of
  /// another user, or of a process that hardened itself, or gone).
  case environment(ObservedProcess)
  /// The ancestry of `process` breaks off at `processID`, whose entry in
  /// `/proc` could not be read (gone, or hidden by `hidepid`).
  case ancestry(ObservedProcess, brokenAt: Int32)
  /// tmux could not say whether `pane` is piped: `reason` says why (not
  /// installed, no server at the socket, no answer in time).
  case tmux(pane: String, reason: String)

  /// What could not be checked, and why.
  public var description: String {
    switch self {
    case .sessionLeader:
      "the terminal's session leader could not be found"
    case .environment(let process):
      "the environment of \(process) could not be read"
    case .ancestry(let process, let processID):
      "the ancestors of \(process) could not be followed past process \(processID)"
    case .tmux(let pane, let reason):
      "tmux could not say whether pane \(pane) is piped: \(reason)"
    }
  }
}
