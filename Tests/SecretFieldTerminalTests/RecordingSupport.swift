import Glibc
import PTYSupport
import ScreenRecording
import SecretFieldTerminal
import TestSupport

/// Runs `arguments` with exactly `environment`, standard output and error
/// into one pipe, and waits for it. With `newSession`, the program starts a
/// session of its own, so it has no controlling terminal, as a pinentry
/// started by gpg-agent has none.
func runMerged(
  _ arguments: [String], environment: [String: String] = defaultTestEnvironment,
  newSession: Bool = false
) throws -> ProgramRun {
  try TestProcess(
    arguments, environment: .exactly(environment), standardError: .standardOutput,
    newSession: newSession
  ).finish()
}

/// An environment with nothing of the test run's own in it: no
/// `ASCIINEMA_REC`, no `TMUX`.
let defaultTestEnvironment = [
  "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/sh",
]

/// A tmux server of the test's own, on a socket in a temporary directory,
/// started without the user's configuration and with an environment that has
/// nothing of the test run's.
final class TmuxServer {
  static let program = "/usr/bin/tmux"
  static var isInstalled: Bool { access(program, X_OK) == 0 }

  let directory: TemporaryDirectory
  var socket: String { directory.path + "/s" }

  /// Starts the server with one detached session `test` running `command`.
  init(command: String) throws {
    directory = try TemporaryDirectory()
    let started = try run([
      "-f", "/dev/null", "new-session", "-d", "-s", "test", "-x", "80", "-y", "24", command,
    ])
    guard started.status == 0 else { throw HarnessError("tmux new-session: \(started.output)") }
  }

  deinit { _ = try? run(["kill-server"]) }

  /// Runs `tmux -S socket arguments...`.
  @discardableResult
  func run(_ arguments: [String]) throws -> ProgramRun {
    var environment = defaultTestEnvironment
    environment["HOME"] = directory.path
    return try runMerged([Self.program, "-S", socket] + arguments, environment: environment)
  }

  /// The session's one pane, as `%0`.
  func paneID() throws -> String {
    let answer = try run(["display-message", "-p", "-t", "test", "#{pane_id}"])
    return answer.output.trimmingWhitespace
  }
}

extension String {
  var trimmingWhitespace: String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}

/// True when the test run itself is being recorded (a recorder among its
/// ancestors, or `ASCIINEMA_REC` in its environment). Every program the
/// process tests start then descends from a recorder, the controls would find
/// it, and the process tests are skipped.
let testRunIsRecorded: Bool = {
  let inspector = LiveSessionInspector()
  if let value = inspector.currentEnvironment()["ASCIINEMA_REC"], !value.isEmpty { return true }
  var processID = inspector.currentProcessID
  for _ in 0..<1024 {
    guard processID > 1, let entry = inspector.entry(ofProcess: processID) else { return false }
    if RecordingDetector.recorder(in: entry) != nil { return true }
    processID = entry.parentID
  }
  return false
}()

/// Debian's python3 and pyte, which `TerminalSession` needs.
let terminalHarnessAvailable = access("/usr/bin/python3", X_OK) == 0
