import Glibc
import PTYSupport
import ScreenRecording
import SecretFieldTerminal
import TestSupport
import Testing

@Suite("LiveSessionInspector reads /proc, tcgetsid and tmux")
struct LiveSessionInspectorTests {
  let inspector = LiveSessionInspector()

  @Test("this process's entry: its parent and command line")
  func ownEntry() throws {
    let entry = try #require(inspector.entry(ofProcess: getpid()))
    #expect(entry.parentID == getppid())
    #expect(entry.arguments == CommandLine.arguments)
    #expect(!entry.name.isEmpty)
  }

  @Test("a name with spaces and parentheses: the fields after it are still read")
  func awkwardName() async {
    await #expect(processExitsWith: .success) {
      // /proc/self/comm names the main thread, which /proc/PID/stat shows.
      let descriptor = open("/proc/self/comm", O_WRONLY)
      #expect(descriptor >= 0)
      _ = write(descriptor, "a) (b", 5)
      close(descriptor)
      let entry = LiveSessionInspector().entry(ofProcess: getpid())
      #expect(entry?.name == "a) (b")
      #expect(entry?.parentID == getppid())
    }
  }

  @Test("a process that does not exist: no entry, no environment")
  func missingProcess() {
    // Above the largest possible PID (4,194,304).
    #expect(inspector.entry(ofProcess: 99_999_999) == nil)
    #expect(inspector.environment(ofProcess: 99_999_999) == nil)
  }

  @Test("environments keep only the variables the detector consults")
  func onlyConsultedVariables() throws {
    let fromProc = try #require(inspector.environment(ofProcess: getpid()))
    #expect(Set(fromProc.keys).isSubset(of: RecordingDetector.consultedVariables))
    #expect(
      Set(inspector.currentEnvironment().keys).isSubset(of: RecordingDetector.consultedVariables))
    #expect(getenv("PATH") != nil, "control: the process has other variables")
  }

  @Test(
    "another user's environment cannot be read: nil, not a crash (control: as root it can)",
    .enabled(if: getuid() == 0, "needs root to become another user"))
  func otherUsersEnvironment() async {
    await #expect(processExitsWith: .success) {
      // The parent: the test process, root's.
      let parent = getppid()
      #expect(LiveSessionInspector().environment(ofProcess: parent) != nil, "control: as root")
      guard let nobody = getpwnam("nobody") else { return }
      #expect(setgid(nobody.pointee.pw_gid) == 0 && setuid(nobody.pointee.pw_uid) == 0)
      #expect(LiveSessionInspector().environment(ofProcess: parent) == nil)
      #expect(LiveSessionInspector().entry(ofProcess: parent) != nil, "stat stays readable")
    }
  }

  @Test("a terminal that is nobody's controlling terminal has no session leader")
  func noLeader() throws {
    let pty = try PseudoTerminalPair()
    #expect(inspector.sessionLeader(ofTerminal: pty.slave) == nil)
  }

  @Test(
    "another session's terminal: its leader is found through /proc",
    .enabled(if: terminalHarnessAvailable, "needs /usr/bin/python3 with python3-pyte"))
  func leaderOfAnotherSession() throws {
    let session = try TerminalSession(
      executable: "/bin/cat",
      options: { () -> TerminalSession.Options in
        var options = TerminalSession.Options()
        options.environment = defaultTestEnvironment
        return options
      }())
    let descriptor = open(session.terminalPath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    #expect(tcgetsid(descriptor) == -1, "not our controlling terminal: tcgetsid cannot say")
    #expect(inspector.sessionLeader(ofTerminal: descriptor) == session.sessionLeaderID)
  }

  // MARK: tmux

  @Test("tmux missing: unavailable, saying so")
  func tmuxMissing() throws {
    let pty = try PseudoTerminalPair()
    let missing = LiveSessionInspector(tmuxProgram: "/nonexistent/tmux")
    let answer = missing.tmuxPane(
      TmuxPaneReference(socketPath: "/tmp/none", paneID: "%0"), terminal: pty.slave)
    #expect(answer == .unavailable(reason: "/nonexistent/tmux is not installed"))
  }

  /// A tmux that runs but gives no answer to trust, how long the inspector
  /// waits for it, and the reason it must give, after the program's path.
  struct UnusableTmux: CustomTestStringConvertible, Sendable {
    let name: String
    let script: String
    var timeout = Duration.seconds(1)
    let reason: String
    var testDescription: String { name }
  }

  @Test(
    "a tmux that hangs is killed at the timeout, one that answers something else is not guessed from: unavailable",
    arguments: [
      UnusableTmux(
        name: "hangs", script: "#!/bin/sh\nexec sleep 60\n", timeout: .milliseconds(200),
        reason: "did not answer within 200 ms"),
      UnusableTmux(
        name: "answers something else", script: "#!/bin/sh\necho ' 1 /dev/pts/0'\n",
        reason: "does not know pane %0"),
    ])
  func tmuxUnusable(_ tmux: UnusableTmux) throws {
    let directory = try TemporaryDirectory()
    let fake = try directory.write("tmux", tmux.script, mode: 0o755)
    let pty = try PseudoTerminalPair()
    let inspector = LiveSessionInspector(tmuxProgram: fake, tmuxTimeout: tmux.timeout)
    let answer = inspector.tmuxPane(
      TmuxPaneReference(socketPath: nil, paneID: "%0"), terminal: pty.slave)
    #expect(answer == .unavailable(reason: "\(fake) \(tmux.reason)"))
  }

  @Test(
    "a real tmux server: piped or not, this terminal or not, unknown panes and sockets",
    .enabled(if: TmuxServer.isInstalled, "needs tmux"))
  func realTmux() throws {
    let server = try TmuxServer(command: "sleep 600")
    let pane = try server.paneID()
    let paneTerminal = try server.run(["display-message", "-p", "-t", pane, "#{pane_tty}"])
      .output.trimmingWhitespace
    let onPane = open(paneTerminal, O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(onPane >= 0, "open \(paneTerminal)")
    defer { close(onPane) }
    let elsewhere = try PseudoTerminalPair()
    let reference = TmuxPaneReference(socketPath: server.socket, paneID: pane)

    #expect(
      inspector.tmuxPane(reference, terminal: onPane)
        == .pane(TmuxPaneState(isPiped: false, isThisTerminal: true)))
    #expect(
      inspector.tmuxPane(reference, terminal: elsewhere.slave)
        == .pane(TmuxPaneState(isPiped: false, isThisTerminal: false)))
    try server.run(["pipe-pane", "-o", "-t", pane, "cat >/dev/null"])
    #expect(
      inspector.tmuxPane(reference, terminal: onPane)
        == .pane(TmuxPaneState(isPiped: true, isThisTerminal: true)))

    let unknownPane = TmuxPaneReference(socketPath: server.socket, paneID: "%99")
    #expect(
      inspector.tmuxPane(unknownPane, terminal: onPane)
        == .unavailable(reason: "tmux does not know pane %99"))
    let noServer = TmuxPaneReference(socketPath: server.directory.path + "/none", paneID: pane)
    #expect(
      inspector.tmuxPane(noServer, terminal: onPane)
        == .unavailable(reason: "tmux exited with status 1"))
  }
}
