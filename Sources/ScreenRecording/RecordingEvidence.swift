/// One sign that the terminal session is being recorded.
public enum RecordingEvidence: Sendable, Hashable, CustomStringConvertible {
  /// A variable that a recorder sets for the programs it records (asciinema's
  /// `ASCIINEMA_REC`) is set in the environment of `process`.
  case environmentVariable(name: String, process: ObservedProcess)
  /// A recorder (`script`, `asciinema`, ...) is `process` itself or one of its
  /// ancestors.
  case recorderProcess(recorder: String, processID: Int32, relatedTo: ObservedProcess)
  /// tmux copies everything the pane shows to a command (`pipe-pane`).
  case tmuxPipePane(pane: String)

  /// The recorder as users know it: `asciinema`, `script`, `tmux`.
  public var recorder: String {
    switch self {
    case .environmentVariable(let name, _):
      RecordingDetector.recorderSetting(environmentVariable: name) ?? name
    case .recorderProcess(let recorder, _, _): recorder
    case .tmuxPipePane: "tmux"
    }
  }

  /// A short sentence for the prompt to show, as in "asciinema is recording
  /// this terminal".
  public var reason: String {
    switch self {
    case .tmuxPipePane: "tmux is copying this terminal's output (pipe-pane)"
    default: "\(recorder) is recording this terminal"
    }
  }

  /// What was found where, as in "ASCIINEMA_REC is set in the environment of
  /// the terminal's session leader (process 812)".
  public var description: String {
    switch self {
    case .environmentVariable(let name, let process):
      "\(name) is set in the environment of \(process)"
    case .recorderProcess(let recorder, let processID, let process):
      switch process {
      case .thisProcess: "\(recorder) (process \(processID)) is an ancestor of this process"
      case .sessionLeader(let leader) where leader == processID:
        "\(recorder) (process \(processID)) is the terminal's session leader"
      case .tmuxClient(let client) where client == processID:
        "\(recorder) (process \(processID)) is the tmux client showing this pane"
      default: "\(recorder) (process \(processID)) is an ancestor of \(process)"
      }
    case .tmuxPipePane(let pane):
      "tmux pipes the output of pane \(pane) to a command (pipe-pane)"
    }
  }
}
