import ScreenRecording
import Testing

/// A process table, environments and tmux answers, made up by a test.
///
/// The default is a terminal session that nothing records: init (1) started a
/// terminal emulator (50), which started the user's shell (101, the session
/// leader), which started the tool (200).
struct FakeSystem: SessionInspector {
  var currentProcessID: Int32 = 200
  var ownEnvironment: [String: String] = ["PATH": "/usr/bin:/bin"]
  var leaderID: Int32? = 101
  var processes: [Int32: ProcessEntry] = [
    1: ProcessEntry(parentID: 0, name: "systemd", arguments: ["/sbin/init"]),
    50: ProcessEntry(parentID: 1, name: "xterm", arguments: ["xterm"]),
    101: ProcessEntry(parentID: 50, name: "bash", arguments: ["-bash"]),
    200: ProcessEntry(parentID: 101, name: "secretfield", arguments: ["secretfield", "prompt"]),
  ]
  /// A process missing here has an environment that cannot be read.
  var environments: [Int32: [String: String]] = [101: ["HOME": "/home/user"]]
  /// By pane ID; a pane missing here makes tmux unavailable.
  var tmuxPanes: [String: TmuxPaneAnswer] = [:]
  /// Every tmux question asked, to show which panes were asked about.
  let tmuxQuestions = Recorder()

  final class Recorder: @unchecked Sendable {
    var panes: [TmuxPaneReference] = []
  }

  func currentEnvironment() -> [String: String] { ownEnvironment }
  func sessionLeader(ofTerminal descriptor: Int32) -> Int32? { leaderID }
  func environment(ofProcess processID: Int32) -> [String: String]? { environments[processID] }
  func entry(ofProcess processID: Int32) -> ProcessEntry? { processes[processID] }
  func tmuxPane(_ pane: TmuxPaneReference, terminal descriptor: Int32) -> TmuxPaneAnswer {
    tmuxQuestions.panes.append(pane)
    return tmuxPanes[pane.paneID] ?? .unavailable(reason: "tmux is not installed")
  }

  func detect() -> RecordingDetection {
    RecordingDetector(inspector: self).detect(terminal: 7)
  }
}

@Suite("RecordingDetector, over a process table the test makes up")
struct RecordingDetectorTests {
  @Test("control: nothing records the session, nothing is unchecked: not detected")
  func nothingRecords() {
    let detection = FakeSystem().detect()
    #expect(!detection.isCaptured)
    #expect(detection.evidence.isEmpty)
    #expect(detection.reason == nil)
    #expect(detection.uncheckedSources.isEmpty)
    #expect(detection.sessionLeaderID == 101)
    #expect(detection.description == "not detected")
  }

  @Test("ASCIINEMA_REC in this process's environment: captured, by asciinema")
  func variableInOwnEnvironment() {
    var system = FakeSystem()
    system.ownEnvironment["ASCIINEMA_REC"] = "1"
    let detection = system.detect()
    #expect(detection.isCaptured)
    #expect(
      detection.evidence == [.environmentVariable(name: "ASCIINEMA_REC", process: .thisProcess)])
    #expect(detection.reason == "asciinema is recording this terminal")
  }

  @Test("ASCIINEMA_REC only in the session leader's environment: captured")
  func variableInLeaderEnvironmentOnly() {
    var system = FakeSystem()
    system.environments[101] = ["ASCIINEMA_REC": "1"]
    let detection = system.detect()
    #expect(detection.isCaptured)
    #expect(
      detection.evidence == [
        .environmentVariable(name: "ASCIINEMA_REC", process: .sessionLeader(processID: 101))
      ])
    #expect(detection.reason == "asciinema is recording this terminal")
    #expect(
      detection.description
        == "captured: ASCIINEMA_REC is set in the environment of the terminal's session leader "
        + "(process 101)")
  }

  @Test("ASCIINEMA_REC set but empty: not taken as a recording")
  func emptyVariable() {
    var system = FakeSystem()
    system.ownEnvironment["ASCIINEMA_REC"] = ""
    system.environments[101] = ["ASCIINEMA_REC": ""]
    #expect(!system.detect().isCaptured)
  }

  @Test("script among this process's ancestors: captured, with its process ID")
  func recorderAncestorOfSelf() {
    var system = FakeSystem()
    // xterm → script → bash (leader) → tool
    system.processes[60] = ProcessEntry(parentID: 50, name: "script", arguments: ["script"])
    system.processes[101]?.parentID = 60
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .recorderProcess(recorder: "script", processID: 60, relatedTo: .thisProcess)
      ], "found once, though the leader's walk passes it too")
    #expect(detection.reason == "script is recording this terminal")
  }

  @Test(
    "asciinema (python) an ancestor of the session leader, not of this process: captured")
  func recorderAncestorOfLeaderOnly() {
    // An askpass started by ssh-add, itself run by a user service outside the
    // terminal; the terminal's shell runs under asciinema 2 (a python script).
    var system = FakeSystem()
    system.processes[60] = ProcessEntry(
      parentID: 50, name: "python3", arguments: ["/usr/bin/python3", "/usr/bin/asciinema", "rec"])
    system.processes[101]?.parentID = 60
    system.processes[150] = ProcessEntry(parentID: 1, name: "ssh-add", arguments: ["ssh-add"])
    system.processes[200] = ProcessEntry(
      parentID: 150, name: "secretfield-ask", arguments: ["/usr/bin/secretfield-askpass"])
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .recorderProcess(
          recorder: "asciinema", processID: 60, relatedTo: .sessionLeader(processID: 101))
      ])
    #expect(detection.reason == "asciinema is recording this terminal")
    #expect(
      detection.evidence.first?.description
        == "asciinema (process 60) is an ancestor of the terminal's session leader (process 101)")
  }

  @Test("control for the ancestry: the same askpass, its terminal's shell unrecorded")
  func askpassUnrecorded() {
    var system = FakeSystem()
    system.processes[150] = ProcessEntry(parentID: 1, name: "ssh-add", arguments: ["ssh-add"])
    system.processes[200]?.parentID = 150
    #expect(!system.detect().isCaptured)
  }

  @Test("the session leader is itself a recorder: captured")
  func leaderIsRecorder() {
    var system = FakeSystem()
    system.processes[101] = ProcessEntry(parentID: 50, name: "ttyrec", arguments: ["ttyrec"])
    system.processes[200]?.parentID = 1
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .recorderProcess(
          recorder: "ttyrec", processID: 101, relatedTo: .sessionLeader(processID: 101))
      ])
    #expect(
      detection.evidence.first?.description
        == "ttyrec (process 101) is the terminal's session leader")
  }

  @Test("the session leader's environment cannot be read: not detected, no error, unchecked")
  func unreadableEnvironment() {
    var system = FakeSystem()
    system.environments[101] = nil
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(detection.uncheckedSources == [.environment(.sessionLeader(processID: 101))])
    #expect(
      detection.description
        == "not detected (not checked: the environment of the terminal's session leader "
        + "(process 101) could not be read)")
  }

  @Test("an unreadable environment does not hide evidence found elsewhere")
  func unreadableEnvironmentWithAncestor() {
    var system = FakeSystem()
    system.environments[101] = nil
    system.processes[60] = ProcessEntry(parentID: 50, name: "vhs", arguments: ["vhs", "demo.tape"])
    system.processes[101]?.parentID = 60
    let detection = system.detect()
    #expect(detection.isCaptured)
    #expect(detection.reason == "vhs is recording this terminal")
    #expect(detection.uncheckedSources == [.environment(.sessionLeader(processID: 101))])
  }

  @Test("an ancestor that cannot be read ends the walk there, listed as unchecked")
  func brokenAncestry() {
    var system = FakeSystem()
    system.processes[50] = nil
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(detection.uncheckedSources == [.ancestry(.thisProcess, brokenAt: 50)])
  }

  @Test("no session leader: own environment and ancestry still checked, leader unchecked")
  func noSessionLeader() {
    var system = FakeSystem()
    system.leaderID = nil
    system.ownEnvironment["ASCIINEMA_REC"] = "1"
    let detection = system.detect()
    #expect(detection.isCaptured)
    #expect(detection.uncheckedSources == [.sessionLeader])
    #expect(detection.sessionLeaderID == nil)
  }

  @Test("this process is the session leader: its environment is not read from /proc")
  func selfIsLeader() {
    var system = FakeSystem()
    system.leaderID = 200
    system.environments[200] = ["ASCIINEMA_REC": "1"]  // must not be consulted
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(detection.uncheckedSources.isEmpty)
  }

  @Test("a parent loop in the table ends the walk")
  func parentLoop() {
    var system = FakeSystem()
    system.processes[50]?.parentID = 200
    let detection = system.detect()
    #expect(!detection.isCaptured)
  }

  // MARK: tmux

  static let paneEnvironment = ["TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%3"]

  @Test("tmux pipe-pane active for this pane: captured")
  func tmuxPiped() {
    var system = FakeSystem()
    system.environments[101]?.merge(Self.paneEnvironment) { $1 }
    system.tmuxPanes["%3"] = .pane(TmuxPaneState(isPiped: true, isThisTerminal: true))
    let detection = system.detect()
    #expect(detection.evidence == [.tmuxPipePane(pane: "%3")])
    #expect(detection.reason == "tmux is copying this terminal's output (pipe-pane)")
    #expect(
      system.tmuxQuestions.panes == [
        TmuxPaneReference(socketPath: "/tmp/tmux-1000/default", paneID: "%3")
      ], "asked about the pane the leader's environment names, at its socket")
  }

  @Test("control: the pane is not piped: not detected")
  func tmuxNotPiped() {
    var system = FakeSystem()
    system.ownEnvironment.merge(Self.paneEnvironment) { $1 }
    system.environments[101]?.merge(Self.paneEnvironment) { $1 }
    system.tmuxPanes["%3"] = .pane(TmuxPaneState(isPiped: false, isThisTerminal: true))
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(system.tmuxQuestions.panes.count == 1, "the same pane is asked about once")
  }

  @Test("a piped pane that shows another terminal says nothing about this one")
  func tmuxPaneElsewhere() {
    var system = FakeSystem()
    system.ownEnvironment.merge(Self.paneEnvironment) { $1 }
    system.tmuxPanes["%3"] = .pane(TmuxPaneState(isPiped: true, isThisTerminal: false))
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(detection.uncheckedSources.isEmpty)
  }

  @Test("tmux cannot be asked: not detected, unchecked with the reason")
  func tmuxUnavailable() {
    var system = FakeSystem()
    system.ownEnvironment.merge(Self.paneEnvironment) { $1 }
    let detection = system.detect()
    #expect(!detection.isCaptured)
    #expect(detection.uncheckedSources == [.tmux(pane: "%3", reason: "tmux is not installed")])
  }

  @Test("no TMUX_PANE anywhere: tmux is not asked")
  func noTmux() {
    var system = FakeSystem()
    system.ownEnvironment["TMUX"] = "/tmp/tmux-1000/default,4242,0"
    _ = system.detect()
    #expect(system.tmuxQuestions.panes.isEmpty)
  }

  @Test("a recorder around the tmux client that shows the pane: captured")
  func recorderAroundTmuxClient() {
    // The pane's shell (101) is a child of the tmux server (90), a daemon; the
    // user ran `script` and then `tmux attach` (client 80) inside it.
    var system = FakeSystem()
    system.processes[90] = ProcessEntry(parentID: 1, name: "tmux: server", arguments: ["tmux"])
    system.processes[101]?.parentID = 90
    system.processes[70] = ProcessEntry(parentID: 50, name: "script", arguments: ["script"])
    system.processes[80] = ProcessEntry(parentID: 70, name: "tmux: client", arguments: ["tmux"])
    system.environments[80] = [:]
    system.environments[101]?.merge(Self.paneEnvironment) { $1 }
    system.tmuxPanes["%3"] = .pane(
      TmuxPaneState(isPiped: false, isThisTerminal: true, clientProcessIDs: [80]))
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .recorderProcess(recorder: "script", processID: 70, relatedTo: .tmuxClient(processID: 80))
      ])
    #expect(detection.reason == "script is recording this terminal")
  }

  @Test("ASCIINEMA_REC in the environment of the tmux client: captured")
  func variableInTmuxClient() {
    var system = FakeSystem()
    system.processes[80] = ProcessEntry(parentID: 1, name: "tmux: client", arguments: ["tmux"])
    system.environments[80] = ["ASCIINEMA_REC": "1"]
    system.ownEnvironment.merge(Self.paneEnvironment) { $1 }
    system.tmuxPanes["%3"] = .pane(
      TmuxPaneState(isPiped: false, isThisTerminal: true, clientProcessIDs: [80]))
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .environmentVariable(name: "ASCIINEMA_REC", process: .tmuxClient(processID: 80))
      ])
  }

  @Test("every sign is reported, in the order checked")
  func allEvidence() {
    var system = FakeSystem()
    system.ownEnvironment["ASCIINEMA_REC"] = "1"
    system.environments[101] = ["ASCIINEMA_REC": "1"].merging(Self.paneEnvironment) { $1 }
    system.processes[60] = ProcessEntry(parentID: 50, name: "script", arguments: ["script"])
    system.processes[101]?.parentID = 60
    system.tmuxPanes["%3"] = .pane(TmuxPaneState(isPiped: true, isThisTerminal: true))
    let detection = system.detect()
    #expect(
      detection.evidence == [
        .environmentVariable(name: "ASCIINEMA_REC", process: .thisProcess),
        .environmentVariable(name: "ASCIINEMA_REC", process: .sessionLeader(processID: 101)),
        .recorderProcess(recorder: "script", processID: 60, relatedTo: .thisProcess),
        .tmuxPipePane(pane: "%3"),
      ])
    #expect(detection.reason == "asciinema is recording this terminal")
  }
}

/// A process entry and the recorder it should be taken for (nil: none).
struct RecorderCase: CustomTestStringConvertible, Sendable {
  let entry: ProcessEntry
  let recorder: String?
  let testDescription: String

  init(_ description: String, _ name: String, _ arguments: [String], is recorder: String?) {
    entry = ProcessEntry(parentID: 1, name: name, arguments: arguments)
    self.recorder = recorder
    testDescription = description
  }

  static let all = [
    RecorderCase("util-linux script", "script", ["script", "-q", "log"], is: "script"),
    RecorderCase("asciinema 3 (native)", "asciinema", ["asciinema", "rec"], is: "asciinema"),
    RecorderCase(
      "asciinema 2 through its #! line", "asciinema",
      ["/usr/bin/python3", "/usr/bin/asciinema", "rec"], is: "asciinema"),
    RecorderCase(
      "asciinema 2 through env python3", "python3",
      ["python3", "-I", "/usr/local/bin/asciinema", "rec", "-c", "bash"], is: "asciinema"),
    RecorderCase(
      "python3 -m asciinema", "python3.11", ["python3.11", "-m", "asciinema", "rec"],
      is: "asciinema"),
    RecorderCase("ttyrec", "ttyrec", ["ttyrec", "session.tty"], is: "ttyrec"),
    RecorderCase("termrec", "termrec", ["termrec"], is: "termrec"),
    RecorderCase("vhs", "vhs", ["/usr/local/bin/vhs", "demo.tape"], is: "vhs"),
    RecorderCase(
      "tlog-rec-session, its name cut to 15 bytes", "tlog-rec-sessio", [], is: "tlog-rec-session"),
    RecorderCase("control: a shell", "bash", ["-bash"], is: nil),
    RecorderCase("control: scriptreplay", "scriptreplay", ["scriptreplay", "t", "log"], is: nil),
    RecorderCase(
      "control: python running another script", "python3",
      ["python3", "/usr/bin/scripts.py", "asciinema"], is: nil),
    RecorderCase(
      "control: python -c with the word in the code", "python3",
      ["python3", "-c", "asciinema"], is: nil),
    RecorderCase(
      "control: a program named after a recorder's argument", "less", ["less", "script"], is: nil),
  ]
}

@Suite("Recorders are known by name, program and script")
struct RecorderNameTests {
  @Test("recorder(in:)", arguments: RecorderCase.all)
  func matches(_ recorderCase: RecorderCase) {
    #expect(RecordingDetector.recorder(in: recorderCase.entry) == recorderCase.recorder)
  }
}

@Suite("TmuxPaneReference reads TMUX and TMUX_PANE")
struct TmuxPaneReferenceTests {
  @Test("the socket is TMUX without its last two fields, which may hold commas")
  func socketPath() {
    let plain = TmuxPaneReference(environment: [
      "TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%3",
    ])
    #expect(plain == TmuxPaneReference(socketPath: "/tmp/tmux-1000/default", paneID: "%3"))
    let commas = TmuxPaneReference(environment: ["TMUX": "/tmp/a,b/s,1,2", "TMUX_PANE": "%0"])
    #expect(commas?.socketPath == "/tmp/a,b/s")
    let odd = TmuxPaneReference(environment: ["TMUX": "junk", "TMUX_PANE": "%0"])
    #expect(odd == TmuxPaneReference(socketPath: nil, paneID: "%0"))
  }

  @Test("either variable missing or empty: no pane")
  func missing() {
    #expect(TmuxPaneReference(environment: ["TMUX": "/s,1,0"]) == nil)
    #expect(TmuxPaneReference(environment: ["TMUX_PANE": "%1"]) == nil)
    #expect(TmuxPaneReference(environment: ["TMUX": "", "TMUX_PANE": "%1"]) == nil)
  }
}
