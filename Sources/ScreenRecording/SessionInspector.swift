/// Where ``RecordingDetector`` gets what it knows about processes, sessions
/// and tmux. ``LiveSessionInspector`` reads the running system; a test gives
/// a process table of its own.
///
/// Every question may go unanswered (nil, or ``TmuxPaneAnswer/unavailable(reason:)``):
/// the detector records that as a source it could not check, never as an error.
package protocol SessionInspector: Sendable {
  /// This process's ID.
  var currentProcessID: Int32 { get }

  /// This process's environment as it is now. Only the variables in
  /// ``RecordingDetector/consultedVariables`` are looked at; an inspector may
  /// leave the others out.
  func currentEnvironment() -> [String: String]

  /// The process ID of the leader of the session whose controlling terminal
  /// `descriptor` is, or nil when none can be found.
  func sessionLeader(ofTerminal descriptor: Int32) -> Int32?

  /// The environment `processID` was started with, or nil when it cannot be
  /// read. As for ``currentEnvironment()``, only the consulted variables
  /// matter.
  func environment(ofProcess processID: Int32) -> [String: String]?

  /// The parent, name and command line of `processID`, or nil when it cannot
  /// be read.
  func entry(ofProcess processID: Int32) -> ProcessEntry?

  /// What tmux says about `pane`: whether it is piped, whether it is the
  /// terminal behind `descriptor`, which clients show it.
  func tmuxPane(_ pane: TmuxPaneReference, terminal descriptor: Int32) -> TmuxPaneAnswer
}
