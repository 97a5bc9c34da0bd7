/// Whose environment or ancestry a piece of recording evidence was found in.
public enum ObservedProcess: Sendable, Hashable, CustomStringConvertible {
  /// The process running the detector.
  case thisProcess
  /// The leader of the session whose controlling terminal the prompt uses:
  /// usually the shell the user typed into, whatever started this process
  /// (ssh, sudo, git or gpg-agent).
  case sessionLeader(processID: Int32)
  /// A tmux client attached to the session that shows this pane: the
  /// program that draws the pane on a real terminal.
  case tmuxClient(processID: Int32)

  /// The process in words, as in "the terminal's session leader (process 812)".
  public var description: String {
    switch self {
    case .thisProcess: "this process"
    case .sessionLeader(let processID): "the terminal's session leader (process \(processID))"
    case .tmuxClient(let processID): "the tmux client showing this pane (process \(processID))"
    }
  }
}
