/// Finds out whether the terminal session a prompt runs in is being recorded,
/// and by what, as far as Linux lets a program see it.
///
/// It looks in three places:
/// 1. **Environments.** `ASCIINEMA_REC`, which asciinema sets for what it
///    records, in this process's environment and in the one the terminal's
///    session leader was started with. The leader's matters most: an askpass
///    is started by ssh, sudo or git and a pinentry by gpg-agent, whose
///    environments may not come from the terminal at all.
/// 2. **Ancestries.** A known recorder (``knownRecorders``) among the ancestors
///    of this process, and of the session leader (the leader included), up to
///    process 1. A recorder's name is matched against the process name, the
///    program of its command line, and for an interpreter (`python3`, `perl`,
///    `sh`, ...) the script or `-m` module it runs, so that asciinema 2 run as
///    `python3 /usr/bin/asciinema rec` is seen.
/// 3. **tmux.** When `TMUX` and `TMUX_PANE` are set (here or in the leader's
///    environment) and the pane shows this terminal: `pipe-pane` active for the
///    pane (`#{pane_pipe}`), and the environment and ancestry of every client
///    attached to the pane's session, where a recorder around `tmux attach`
///    shows.
///
/// It cannot see a screen recorder outside the terminal (OBS, a desktop or
/// remote-desktop recorder), the terminal emulator's own logging, a tmux or
/// screen log kept other than through `pipe-pane`, or a recorder whose process
/// it may not read. "Not detected" therefore means only that none of these
/// signs was found.
///
/// None of this touches a secret. Call it once when the prompt starts; calling
/// it again costs the same.
///
/// - Complexity: two small `/proc` reads per ancestor and one `environ` read,
///   about 0.13 ms for a tree 8 deep; when the terminal is not the controlling
///   terminal, one read of `/proc/PID/stat` per process to find its session
///   leader (about 10 µs each); in tmux, one run of `tmux`, about 2.7 ms,
///   bounded by a timeout of one second (release build, 2-core
///   x86-64 VM).
public struct RecordingDetector: Sendable {
  /// Where the detector reads processes, environments and tmux from.
  package let inspector: any SessionInspector

  /// A detector reading the running system.
  public init() {
    inspector = LiveSessionInspector()
  }

  /// A detector reading from `inspector` (a test's stand-in).
  package init(inspector: any SessionInspector) {
    self.inspector = inspector
  }

  /// Whether the session of the terminal open at `descriptor` is recorded,
  /// with the evidence for it and the sources that could not be checked.
  public func detect(terminal descriptor: Int32) -> RecordingDetection {
    var search = Search(inspector: inspector)
    let ownEnvironment = inspector.currentEnvironment()
    search.checkEnvironment(ownEnvironment, of: .thisProcess)

    let selfID = inspector.currentProcessID
    let leaderID = inspector.sessionLeader(ofTerminal: descriptor)
    var leaderEnvironment: [String: String] = [:]
    if let leaderID, leaderID != selfID {
      let leader = ObservedProcess.sessionLeader(processID: leaderID)
      if let environment = inspector.environment(ofProcess: leaderID) {
        leaderEnvironment = environment
        search.checkEnvironment(environment, of: leader)
      } else {
        search.unchecked.append(.environment(leader))
      }
    } else if leaderID == nil {
      search.unchecked.append(.sessionLeader)
    }

    search.walkAncestors(from: selfID, checkingStart: false, for: .thisProcess)
    if let leaderID {
      search.walkAncestors(
        from: leaderID, checkingStart: true, for: .sessionLeader(processID: leaderID))
    }

    var panes: [TmuxPaneReference] = []
    for environment in [ownEnvironment, leaderEnvironment] {
      if let pane = TmuxPaneReference(environment: environment), !panes.contains(pane) {
        panes.append(pane)
      }
    }
    for pane in panes { search.checkTmux(pane, terminal: descriptor) }

    return RecordingDetection(
      evidence: search.evidence, uncheckedSources: search.unchecked, sessionLeaderID: leaderID)
  }

  /// The state of one detection while it runs.
  private struct Search {
    let inspector: any SessionInspector
    var evidence: [RecordingEvidence] = []
    var unchecked: [UncheckedRecordingSource] = []
    /// Processes whose name was looked at: walks that meet (the leader is
    /// usually an ancestor of this process too) stop where they meet.
    var visited: Set<Int32> = []

    /// A process tree deeper than this is a loop in what the inspector said.
    static let maximumDepth = 1024

    init(inspector: any SessionInspector) { self.inspector = inspector }

    mutating func checkEnvironment(_ environment: [String: String], of process: ObservedProcess) {
      for name in RecordingDetector.recorderEnvironmentVariables.keys.sorted() {
        if let value = environment[name], !value.isEmpty {
          evidence.append(.environmentVariable(name: name, process: process))
        }
      }
    }

    /// Follows parents from `start` to process 1, matching each name against
    /// the known recorders (`start` itself only when `checkingStart`).
    mutating func walkAncestors(
      from start: Int32, checkingStart: Bool, for process: ObservedProcess
    ) {
      var processID = start
      var checking = checkingStart
      for _ in 0..<Self.maximumDepth {
        guard processID > 0, visited.insert(processID).inserted else { return }
        guard let entry = inspector.entry(ofProcess: processID) else {
          unchecked.append(.ancestry(process, brokenAt: processID))
          return
        }
        if checking, let recorder = RecordingDetector.recorder(in: entry) {
          evidence.append(
            .recorderProcess(recorder: recorder, processID: processID, relatedTo: process))
        }
        checking = true
        if processID == 1 { return }
        processID = entry.parentID
      }
    }

    mutating func checkTmux(_ pane: TmuxPaneReference, terminal descriptor: Int32) {
      switch inspector.tmuxPane(pane, terminal: descriptor) {
      case .unavailable(let reason):
        unchecked.append(.tmux(pane: pane.paneID, reason: reason))
      case .pane(let state):
        // A pane on another terminal says nothing about this one.
        guard state.isThisTerminal else { return }
        if state.isPiped { evidence.append(.tmuxPipePane(pane: pane.paneID)) }
        for clientID in state.clientProcessIDs {
          let client = ObservedProcess.tmuxClient(processID: clientID)
          if let environment = inspector.environment(ofProcess: clientID) {
            checkEnvironment(environment, of: client)
          } else {
            unchecked.append(.environment(client))
          }
          walkAncestors(from: clientID, checkingStart: true, for: client)
        }
      }
    }
  }
}
