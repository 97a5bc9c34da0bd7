import CSystemShims
import Foundation
import Glibc

/// glibc's `POSIX_SPAWN_SETSID` (0x80), declared only under `_GNU_SOURCE`.
private let spawnInNewSession: Int16 = 0x80

/// What the window tests need: the window program built beside the tests, and
/// Xvfb, xdotool, xdpyinfo and ImageMagick's import and convert installed.
/// `SECRETFIELD_REQUIRE_WINDOW_TESTS=1` (Scripts/test sets it) makes them run
/// anyway, so a machine that lacks one fails instead of skipping.
enum WindowTestEnvironment {
  static let programs = ["Xvfb", "xdotool", "xdpyinfo", "import", "convert", "xwininfo", "timeout"]

  static var isAvailable: Bool {
    if ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1" {
      return true
    }
    return programs.allSatisfy { path(of: $0) != nil }
      && FileManager.default.isExecutableFile(atPath: windowProgram)
  }

  /// The directory of the test bundle, where SwiftPM puts the executables.
  static var productsDirectory: String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return (executable as NSString).deletingLastPathComponent
  }

  static var windowProgram: String { productsDirectory + "/secretfield-window" }
  static var askpassProgram: String { productsDirectory + "/secretfield-askpass" }

  /// Where the screenshots go, as artifacts: `.build/window-screenshots/`.
  static var screenshotDirectory: String {
    var directory = productsDirectory
    while !directory.hasSuffix("/.build"), directory != "/" {
      directory = (directory as NSString).deletingLastPathComponent
    }
    let path = (directory == "/" ? NSTemporaryDirectory() : directory) + "/window-screenshots"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func path(of program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

struct WindowTestError: Error, CustomStringConvertible {
  var description: String
}

/// What a program printed and how it ended.
struct ProgramRun {
  /// The exit status; 128 + N for a signal N.
  var status: Int32
  var output: String
  var error: String
}

/// A program started with `posix_spawn`, its standard output and error in
/// pipes made with `O_CLOEXEC`, so no other child started meanwhile (tests
/// run in parallel) holds their write ends and the reads end with the
/// program. (Foundation's `Process` leaked them here, and a read to the end
/// of `xdpyinfo`'s output waited for an Xvfb that another test had started.)
final class SpawnedProgram {
  let processID: pid_t
  private var output: Int32
  private let error: Int32
  private var finished: ProgramRun?

  /// Starts `arguments` (found in `PATH`) with standard input from /dev/null
  /// (or a pipe that holds `input` and then ends), the environment changed by
  /// `environment` (nil removes a variable), and, with `newSession`, in a
  /// session of its own: no controlling terminal.
  init(
    _ arguments: [String], environment: [String: String?] = [:], newSession: Bool = false,
    input: String? = nil
  ) throws {
    var outputPipe: [Int32] = [0, 0]
    var errorPipe: [Int32] = [0, 0]
    var inputPipe: [Int32] = [-1, -1]
    guard secretfield_pipe2(&outputPipe, O_CLOEXEC) == 0,
      secretfield_pipe2(&errorPipe, O_CLOEXEC) == 0,
      input == nil || secretfield_pipe2(&inputPipe, O_CLOEXEC) == 0
    else {
      throw WindowTestError(description: "pipe2 failed")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if input == nil {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    } else {
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    }
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The test runner's threads block signals; a child inherits the mask, and
    // an Xvfb with SIGALRM blocked never serves its first client. Every
    // signal unblocked and at its default.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= spawnInNewSession }
    posix_spawnattr_setflags(&attributes, flags)
    var variables = ProcessInfo.processInfo.environment
    for (name, value) in environment { variables[name] = value }
    let program =
      arguments[0].hasPrefix("/")
      ? arguments[0] : WindowTestEnvironment.path(of: arguments[0]) ?? arguments[0]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] =
      variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var processID: pid_t = 0
    let spawned = posix_spawn(&processID, program, &actions, &attributes, &argv, &envp)
    close(outputPipe[1])
    close(errorPipe[1])
    if input != nil { close(inputPipe[0]) }
    guard spawned == 0 else {
      close(outputPipe[0])
      close(errorPipe[0])
      if input != nil { close(inputPipe[1]) }
      throw WindowTestError(description: "cannot start \(program): errno \(spawned)")
    }
    if let input {
      // Less than a pipe's capacity: written whole before the program reads.
      let bytes = Array(input.utf8)
      _ = bytes.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
      close(inputPipe[1])
    }
    self.processID = processID
    self.output = outputPipe[0]
    self.error = errorPipe[0]
  }

  deinit {
    if finished == nil {
      kill(processID, SIGKILL)
      var status: Int32 = 0
      while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
    }
    close(output)
    close(error)
  }

  /// True while the program runs (it is reaped once it has ended).
  var isRunning: Bool {
    if finished != nil { return false }
    var status: Int32 = 0
    let result = waitpid(processID, &status, WNOHANG)
    guard result == processID else { return result == 0 }
    finished = ProgramRun(status: Self.code(status), output: "", error: "")
    return false
  }

  /// Waits up to `limit` for the program to end (killing it after), then reads
  /// what it printed.
  func finish(within limit: Duration = .seconds(60)) throws -> ProgramRun {
    let deadline = ContinuousClock.now + limit
    // Read while waiting: a program that fills a pipe (xdpyinfo prints more
    // than 64 KiB) would otherwise never end.
    while isRunning, ContinuousClock.now < deadline {
      drain()
      usleep(20_000)
    }
    if isRunning {
      kill(processID, SIGKILL)
      _ = try? finish(within: .seconds(10))
      throw WindowTestError(description: "\(processID) did not end within \(limit)")
    }
    var run = finished!
    drain()
    run.output = String(decoding: outputBytes + Self.readToEnd(output), as: UTF8.self)
    run.error = String(decoding: errorBytes + Self.readToEnd(error), as: UTF8.self)
    outputBytes = []
    errorBytes = []
    return run
  }

  private var outputBytes: [UInt8] = []
  private var errorBytes: [UInt8] = []

  /// Waits until the program has written `text` to its standard error,
  /// reading as it comes; false when it ended first, or after `limit`, a
  /// guard against a program that never writes it.
  func waitForStandardError(containing text: String, within limit: Duration = .seconds(60)) -> Bool
  {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      drain()
      if String(decoding: errorBytes, as: UTF8.self).contains(text) { return true }
      guard isRunning else { return false }
      usleep(20_000)
    }
    return false
  }

  /// Ends the program at once (`SIGKILL`).
  func forceQuit() { if isRunning { Glibc.kill(processID, SIGKILL) } }

  /// Reads what the pipes hold now, without waiting.
  private func drain() {
    for (descriptor, isOutput) in [(output, true), (error, false)] {
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      while poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLIN) != 0 {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard got > 0 else { break }
        if isOutput { outputBytes += chunk[..<got] } else { errorBytes += chunk[..<got] }
      }
    }
  }

  /// Closes the read end of the program's standard output, as a client that
  /// went away does: its writes fail (`EPIPE`) from then on, and what it
  /// wrote before is lost.
  func closeOutput() {
    close(output)
    output = -1
  }

  /// Asks the program to end (`SIGTERM`).
  func terminate() { if isRunning { kill(processID, SIGTERM) } }

  private static func code(_ status: Int32) -> Int32 {
    status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { return bytes }
      bytes += chunk[..<got]
    }
  }
}

/// Runs `arguments` to its end (test plumbing: nothing secret of the code under
/// test passes through it), with `environment` changed.
@discardableResult
func runProgram(_ arguments: [String], environment: [String: String?] = [:]) throws -> ProgramRun {
  try SpawnedProgram(arguments, environment: environment).finish()
}

/// An Xvfb server of its own on a free display number, ended when the value
/// is released.
final class VirtualDisplay {
  let number: Int
  private let server: SpawnedProgram

  var name: String { ":\(number)" }

  /// Starts Xvfb on the first display number from a random start that has no
  /// lock file and starts, and waits (up to 30 s) until `xdpyinfo` answers.
  init() throws {
    var candidate = 100 + Int.random(in: 0..<400)
    for _ in 0..<20 {
      candidate += 1
      guard !FileManager.default.fileExists(atPath: "/tmp/.X\(candidate)-lock") else { continue }
      let server = try SpawnedProgram(
        ["Xvfb", ":\(candidate)", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
      let deadline = ContinuousClock.now + .seconds(30)
      while server.isRunning, ContinuousClock.now < deadline {
        if let run = try? runProgram(["xdpyinfo", "-display", ":\(candidate)"]), run.status == 0 {
          self.number = candidate
          self.server = server
          return
        }
        usleep(100_000)
      }
      server.terminate()
    }
    throw WindowTestError(description: "no Xvfb display could be started")
  }

  deinit {
    server.terminate()
    _ = try? server.finish(within: .seconds(10))
  }

  /// Runs `xdotool ARGUMENTS` on this display, under `timeout 60` so that a
  /// window that never comes fails the test instead of hanging it.
  @discardableResult
  func xdotool(_ arguments: [String]) throws -> ProgramRun {
    let run = try runProgram(
      ["timeout", "60", "xdotool"] + arguments, environment: ["DISPLAY": name])
    guard run.status == 0 else {
      throw WindowTestError(
        description: "xdotool \(arguments) failed (\(run.status)): \(run.error)")
    }
    return run
  }

  /// Waits for the window named `title` and gives it the keyboard focus.
  func focusWindow(named title: String) throws {
    let found = try xdotool(["search", "--sync", "--name", title])
    guard let window = found.output.split(separator: "\n").first else {
      throw WindowTestError(description: "no window named \(title)")
    }
    try xdotool(["windowfocus", "--sync", String(window)])
  }

  /// Waits (up to 60 s) for a shown window named `title` that is none of
  /// `seen`, gives it the keyboard focus, and returns it as `ID:PID`: the next
  /// dialog of a program that opens one after another, while the last may
  /// still be closing. (A window is named with its process: the X server
  /// gives a new client the id range of one that left, so a dialog of the
  /// next askpass process has the same window id as the last one's.)
  @discardableResult
  func focusNewWindow(named title: String, after seen: [String] = []) throws -> String {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let found = try runProgram(
        ["xdotool", "search", "--onlyvisible", "--name", title], environment: ["DISPLAY": name])
      for window in found.output.split(separator: "\n").map(String.init) {
        let owner = try runProgram(
          ["xdotool", "getwindowpid", window], environment: ["DISPLAY": name])
        let named = window + ":" + owner.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard owner.status == 0, !seen.contains(named) else { continue }
        try xdotool(["windowfocus", "--sync", window])
        return named
      }
      usleep(100_000)
    }
    throw WindowTestError(description: "no new window named \(title) within 60 s")
  }

  /// Gives the keyboard focus to the root window, away from every dialog.
  func focusRoot() throws {
    let info = try runProgram(["xwininfo", "-root", "-display", name])
    guard
      let line = info.output.split(separator: "\n").first(where: { $0.contains("Window id:") }),
      let id = line.split(separator: " ").first(where: { $0.hasPrefix("0x") })
    else { throw WindowTestError(description: "no root window id in \(info.output)") }
    try xdotool(["windowfocus", "--sync", String(Int(id.dropFirst(2), radix: 16) ?? 0)])
  }

  func type(_ text: String) throws { try xdotool(["type", "--delay", "20", text]) }
  func key(_ keys: String...) throws { try xdotool(["key", "--delay", "20"] + keys) }

  /// The screen's pixels as raw RGB, once two captures 300 ms apart agree (the
  /// window has drawn what it was sent), and a PNG of it at `artifact` under
  /// ``WindowTestEnvironment/screenshotDirectory``.
  func settledScreenshot(artifact: String) throws -> [UInt8] {
    var previous: [UInt8]?
    let deadline = ContinuousClock.now + .seconds(30)
    let path = WindowTestEnvironment.screenshotDirectory + "/" + artifact + ".png"
    while ContinuousClock.now < deadline {
      usleep(300_000)
      try runProgram(["import", "-display", name, "-window", "root", "png:" + path])
      let pixels = try pixelsOf(path)
      if pixels == previous { return pixels }
      previous = pixels
    }
    throw WindowTestError(description: "the screen did not settle")
  }

  private func pixelsOf(_ path: String) throws -> [UInt8] {
    let raw = path + ".rgb"
    defer { unlink(raw) }
    let run = try runProgram(["convert", path, "-depth", "8", "rgb:" + raw])
    guard run.status == 0 else { throw WindowTestError(description: "convert: \(run.error)") }
    return Array(FileManager.default.contents(atPath: raw) ?? Data())
  }
}

/// Starts the window program on `display`, its standard output a pipe and no
/// controlling terminal (a session of its own), as ssh runs an askpass from a
/// desktop. It reads no PipeWire daemon unless `environment` names one
/// (`PIPEWIRE_REMOTE`): a screencast on the machine running the tests is no
/// business of theirs.
func startWindow(
  _ arguments: [String], program: String = WindowTestEnvironment.windowProgram,
  display: VirtualDisplay, environment: [String: String?] = [:], input: String? = nil
) throws -> SpawnedProgram {
  var variables: [String: String?] = [
    "DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_A11Y": "none",
    "NO_AT_BRIDGE": "1", "WAYLAND_DISPLAY": nil, "SSH_ASKPASS_PROMPT": nil,
    "SECRETFIELD_ASKPASS_FRONTEND": nil,
    "PIPEWIRE_REMOTE": "/nonexistent/secretfield-tests/pipewire-0",
  ]
  for (name, value) in environment { variables[name] = value }
  return try SpawnedProgram(
    [program] + arguments, environment: variables, newSession: true, input: input)
}
