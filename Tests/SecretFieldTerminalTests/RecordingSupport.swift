import Glibc
import PTYSupport
import ScreenRecording
import SecretFieldTerminal

@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// `POSIX_SPAWN_SETSID`, hidden from Swift behind `_GNU_SOURCE` (glibc 2.26+).
private let spawnNewSession: Int32 = 0x80

/// What a program run to its end left: its exit status (-1 when killed by a
/// signal) and its standard output.
struct ProgramResult {
  var status: Int32
  var output: String
}

/// Runs `arguments` with exactly `environment`, standard input on
/// `/dev/null`, standard output and error into one pipe, and waits for it.
/// With `newSession`, the program starts a session of its own
/// (`POSIX_SPAWN_SETSID`), so it has no controlling terminal, as a pinentry
/// started by gpg-agent has none.
///
/// The deadline bounds a hang; nothing is asserted about speed.
func runProgram(
  _ arguments: [String], environment: [String: String] = defaultTestEnvironment,
  newSession: Bool = false
) throws -> ProgramResult {
  var ends: [Int32] = [-1, -1]
  guard systemPipe2(&ends, O_CLOEXEC) == 0 else {
    throw HarnessError("pipe2: \(String(cString: strerror(errno)))")
  }
  defer { close(ends[0]) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
  posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var noSignals = sigset_t()
  sigemptyset(&noSignals)
  posix_spawnattr_setsigmask(&attributes, &noSignals)
  posix_spawnattr_setflags(
    &attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK) | (newSession ? spawnNewSession : 0)))
  let environmentStrings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  var processID: pid_t = 0
  let spawned = withCStrings(arguments) { argv in
    withCStrings(environmentStrings) { envp in
      posix_spawn(&processID, arguments[0], &actions, &attributes, argv, envp)
    }
  }
  close(ends[1])
  guard spawned == 0 else {
    throw HarnessError("posix_spawn \(arguments[0]): \(String(cString: strerror(spawned)))")
  }
  var output: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  let deadline = ContinuousClock.now + .seconds(60)
  while true {
    var request = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
    let ready = poll(&request, 1, 100)
    if ready == 0 {
      guard ContinuousClock.now < deadline else {
        kill(processID, SIGKILL)
        var status: Int32 = 0
        waitpid(processID, &status, 0)
        throw HarnessError("\(arguments) did not finish; output so far: \(output)")
      }
      continue
    }
    let got = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
    if got < 0 && errno == EINTR { continue }
    if got <= 0 { break }
    output += chunk[..<got]
  }
  var status: Int32 = 0
  while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
  let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
  return ProgramResult(status: exitStatus, output: String(decoding: output, as: UTF8.self))
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// An environment with nothing of the test run's own in it: no
/// `ASCIINEMA_REC`, no `TMUX`.
let defaultTestEnvironment = [
  "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHELL": "/bin/sh",
]

/// A fresh directory under `/tmp` with a short path (tmux's socket path is
/// limited to 107 bytes), removed by `deinit`.
final class TemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/sf-rec-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
    }
    path = String(cString: made)
  }

  deinit { _ = try? runProgram(["/bin/rm", "-rf", path]) }

  /// Writes `text` to the file `name` in the directory, with `mode`.
  func write(_ name: String, _ text: String, mode: mode_t = 0o644) throws -> String {
    let file = path + "/" + name
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw HarnessError("open \(file): \(errno)") }
    defer { close(descriptor) }
    var text = text
    _ = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    return file
  }

  /// The content of the file `name`, or nil while it does not exist.
  func read(_ name: String) -> String? {
    let descriptor = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      content += chunk[..<got]
    }
    return String(decoding: content, as: UTF8.self)
  }

  /// Waits until the file `name` exists, and returns its content. The
  /// deadline bounds a hang.
  func waitForFile(_ name: String) throws -> String {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      if let content = read(name) { return content }
      var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
      nanosleep(&pause, nil)
    }
    throw HarnessError("\(path)/\(name) never appeared")
  }
}

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
  func run(_ arguments: [String]) throws -> ProgramResult {
    var environment = defaultTestEnvironment
    environment["HOME"] = directory.path
    return try runProgram([Self.program, "-S", socket] + arguments, environment: environment)
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
