import Glibc
import PTYSupport
import ScreenRecording
import SecretFieldTerminal
import TestSupport
import Testing

/// The probe's path, built beside the test bundle.
let probePath = builtExecutable("pty-probe")

/// Runs `pty-probe --detect-recording` as a shell runs a job in a pty: the
/// harness's helper is the session leader and has `leaderEnvironment`; the
/// probe has `programEnvironment` only. Returns what it printed.
func detectInSession(
  programEnvironment: [String: String] = [:], leaderEnvironment: [String: String] = [:],
  executable: String = probePath, arguments: [String] = ["--detect-recording"]
) throws -> (output: String, session: TerminalSession) {
  var options = TerminalSession.Options()
  options.environment = defaultTestEnvironment.merging(programEnvironment) { $1 }
  options.sessionLeaderEnvironment = leaderEnvironment
  options.standardOutput = .captured
  let session = try TerminalSession(executable: executable, arguments: arguments, options: options)
  let status = try session.waitForExit()
  let output = String(decoding: try session.capturedOutput(), as: UTF8.self)
  #expect(status == .exited(0), "\(output)")
  return (output, session)
}

/// Where `ASCIINEMA_REC=1` is put, and what the probe must then say.
struct VariableCase: CustomTestStringConvertible, Sendable {
  let testDescription: String
  let inProgram: Bool
  let inLeader: Bool
  /// The evidence line expected, with `LEADER` standing for the leader's PID;
  /// nil: not detected.
  let evidence: String?

  static let all = [
    VariableCase(
      testDescription: "only in the session leader's environment (the program's has none)",
      inProgram: false, inLeader: true,
      evidence:
        "evidence: ASCIINEMA_REC is set in the environment of the terminal's session leader "
        + "(process LEADER)"),
    VariableCase(
      testDescription: "only in the program's own environment", inProgram: true, inLeader: false,
      evidence: "evidence: ASCIINEMA_REC is set in the environment of this process"),
    VariableCase(
      testDescription: "control: in neither", inProgram: false, inLeader: false, evidence: nil),
  ]
}

/// A program the probe runs under, and whether that makes a recorder its
/// ancestor.
struct WrapperCase: CustomTestStringConvertible, Sendable {
  let testDescription: String
  /// The program and its arguments, given the probe's command line and a
  /// directory to put scripts in.
  let command: @Sendable (_ probe: String, _ directory: TemporaryDirectory) throws -> [String]
  /// What the evidence line starts with; nil: not detected.
  let evidencePrefix: String?

  /// A python script that runs the rest of its command line and waits for it,
  /// as asciinema 2 runs the shell it records.
  static let pythonRecorder = "import subprocess, sys\nsys.exit(subprocess.call(sys.argv[2:]))\n"

  static let all = [
    WrapperCase(
      testDescription: "util-linux script -qfc",
      command: { probe, _ in ["/usr/bin/script", "-qfc", probe, "/dev/null"] },
      evidencePrefix: "evidence: script (process "),
    WrapperCase(
      testDescription: "control: sh -c",
      command: { probe, _ in ["/bin/sh", "-c", probe] }, evidencePrefix: nil),
    WrapperCase(
      testDescription: "python3 /DIR/asciinema rec, as asciinema 2 runs",
      command: { probe, directory in
        let script = try directory.write("asciinema", pythonRecorder)
        return ["/usr/bin/python3", script, "rec", "/bin/sh", "-c", probe]
      },
      evidencePrefix: "evidence: asciinema (process "),
    WrapperCase(
      testDescription: "control: the same python script under another name",
      command: { probe, directory in
        let script = try directory.write("recorder", pythonRecorder)
        return ["/usr/bin/python3", script, "rec", "/bin/sh", "-c", probe]
      },
      evidencePrefix: nil),
  ]
}

@Suite(
  "RecordingDetector in real process trees: pty sessions, script, tmux",
  .enabled(if: !testRunIsRecorded, "the test run itself is recorded: every control would fail"),
  .enabled(if: terminalHarnessAvailable, "needs /usr/bin/python3 with python3-pyte"))
struct RecordingProcessTests {
  @Test("ASCIINEMA_REC=1", arguments: VariableCase.all)
  func variable(_ variableCase: VariableCase) throws {
    let (output, session) = try detectInSession(
      programEnvironment: variableCase.inProgram ? ["ASCIINEMA_REC": "1"] : [:],
      leaderEnvironment: variableCase.inLeader ? ["ASCIINEMA_REC": "1"] : [:])
    let lines = output.split(whereSeparator: \.isNewline).map(String.init)
    #expect(lines.contains("leader: \(session.sessionLeaderID)"), "\(output)")
    #expect(!lines.contains { $0.hasPrefix("unchecked:") }, "\(output)")
    if let evidence = variableCase.evidence {
      #expect(lines.first == "captured", "\(output)")
      #expect(lines.contains("reason: asciinema is recording this terminal"), "\(output)")
      let expected = evidence.replacing("LEADER", with: String(session.sessionLeaderID))
      #expect(lines.contains(expected), "\(output)")
    } else {
      #expect(lines.first == "not detected", "\(output)")
    }
  }

  @Test(
    "no controlling terminal (as a pinentry): the terminal's session leader is found anyway",
    arguments: [true, false])
  func pinentryLike(leaderRecorded: Bool) throws {
    var options = TerminalSession.Options()
    options.environment = defaultTestEnvironment
    options.sessionLeaderEnvironment = leaderRecorded ? ["ASCIINEMA_REC": "1"] : [:]
    // The job in the pty only keeps it busy; the probe runs outside it, in a
    // session of its own, and opens the pty by its path.
    let session = try TerminalSession(executable: "/bin/cat", options: options)
    let result = try runMerged(
      [probePath, "--detect-recording", "--terminal", session.terminalPath], newSession: true)
    #expect(result.status == 0, "\(result.output)")
    let lines = result.output.split(whereSeparator: \.isNewline).map(String.init)
    #expect(lines.contains("leader: \(session.sessionLeaderID)"), "\(result.output)")
    if leaderRecorded {
      #expect(lines.first == "captured", "\(result.output)")
      #expect(
        lines.contains(
          "evidence: ASCIINEMA_REC is set in the environment of the terminal's session leader "
            + "(process \(session.sessionLeaderID))"), "\(result.output)")
    } else {
      #expect(lines.first == "not detected", "control: \(result.output)")
    }
  }

  @Test("a recorder among the ancestors", arguments: WrapperCase.all)
  func wrapped(_ wrapper: WrapperCase) throws {
    let directory = try TemporaryDirectory()
    let command = try wrapper.command("\(probePath) --detect-recording", directory)
    let (output, _) = try detectInSession(
      executable: command[0], arguments: Array(command.dropFirst()))
    let lines = output.split(whereSeparator: \.isNewline).map(String.init)
    if let prefix = wrapper.evidencePrefix {
      #expect(lines.first == "captured", "\(output)")
      #expect(lines.contains { $0.hasPrefix(prefix) }, "\(output)")
    } else {
      #expect(lines.first == "not detected", "control: \(output)")
    }
  }

  // MARK: tmux

  /// A tmux server whose pane waits for Enter, then runs the probe and leaves
  /// its output in `out`.
  static func paneServer() throws -> TmuxServer {
    // The server's directory does not exist yet when the command is built:
    // the pane finds it through $HOME, which TmuxServer sets to it.
    try TmuxServer(
      command: "sh -c 'read go; \(probePath) --detect-recording > \"$HOME/out.tmp\" 2>&1;"
        + " mv \"$HOME/out.tmp\" \"$HOME/out\"'")
  }

  @Test(
    "tmux pipe-pane active for the pane (control: not active)",
    .enabled(if: TmuxServer.isInstalled, "needs tmux"), arguments: [true, false])
  func tmuxPipePane(piped: Bool) throws {
    let server = try Self.paneServer()
    let pane = try server.paneID()
    if piped {
      try server.run(["pipe-pane", "-o", "-t", pane, "cat >/dev/null"])
      let state = try server.run(["display-message", "-p", "-t", pane, "#{pane_pipe}"])
      try #require(state.output.trimmingWhitespace == "1", "pipe-pane took")
    }
    try server.run(["send-keys", "-t", pane, "Enter"])
    let output = try server.directory.waitForFile("out")
    let lines = output.split(whereSeparator: \.isNewline).map(String.init)
    #expect(!lines.contains { $0.hasPrefix("unchecked:") }, "tmux answered: \(output)")
    if piped {
      #expect(lines.first == "captured", "\(output)")
      #expect(
        lines.contains("evidence: tmux pipes the output of pane \(pane) to a command (pipe-pane)"),
        "\(output)")
      #expect(
        lines.contains("reason: tmux is copying this terminal's output (pipe-pane)"), "\(output)")
    } else {
      #expect(lines.first == "not detected", "control: \(output)")
    }
  }

  @Test(
    "script around `tmux attach`: the client's ancestry shows it (control: attach alone)",
    .enabled(if: TmuxServer.isInstalled, "needs tmux"), arguments: [true, false])
  func recorderAroundTmuxClient(recorded: Bool) throws {
    let server = try Self.paneServer()
    let pane = try server.paneID()
    let attach = "\(TmuxServer.program) -S \(server.socket) attach -t test"
    var options = TerminalSession.Options()
    options.environment = defaultTestEnvironment
    let client =
      recorded
      ? try TerminalSession(
        executable: "/usr/bin/script", arguments: ["-qfc", attach, "/dev/null"], options: options)
      : try TerminalSession(
        executable: TmuxServer.program, arguments: ["-S", server.socket, "attach", "-t", "test"],
        options: options)
    let deadline = ContinuousClock.now + .seconds(60)
    while try server.run(["list-clients", "-F", "#{client_pid}"]).output.isEmpty {
      guard ContinuousClock.now < deadline else {
        throw HarnessError("the tmux client never attached: \(try client.screen())")
      }
      var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
      nanosleep(&pause, nil)
    }
    try server.run(["send-keys", "-t", pane, "Enter"])
    let output = try server.directory.waitForFile("out")
    let lines = output.split(whereSeparator: \.isNewline).map(String.init)
    if recorded {
      #expect(lines.first == "captured", "\(output)")
      #expect(
        lines.contains {
          $0.hasPrefix("evidence: script (process ")
            && $0.contains("is an ancestor of the tmux client showing this pane")
        }, "\(output)")
    } else {
      #expect(lines.first == "not detected", "control: \(output)")
    }
  }
}
