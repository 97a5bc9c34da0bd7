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
  /// What the Wayland runs need besides: a headless sway started as
  /// `nobody` (util-linux's setpriv), wtype and grim.
  static let waylandPrograms = ["sway", "swaymsg", "wtype", "grim", "setpriv"]

  /// Whether the tests run on Wayland too: the programs are there, or the
  /// window tests are required.
  static var isWaylandAvailable: Bool {
    if ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1" {
      return true
    }
    return isAvailable && waylandPrograms.allSatisfy { path(of: $0) != nil }
  }

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
  /// The write end of the program's standard output, kept by the test
  /// (`holdsOutput`) to fill the pipe; -1 when not kept.
  private var outputWriteEnd: Int32 = -1

  /// A write to a program that already closed its input fails with `EPIPE`
  /// instead of killing the test runner, which holds every suite: a program
  /// that ends early is a test's failure, not the run's. Children get every
  /// signal at its default (below), so they still die of `SIGPIPE`.
  private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Starts `arguments` (found in `PATH`) with standard input from /dev/null
  /// (or a pipe that holds `input` and then ends), the environment changed by
  /// `environment` (nil removes a variable), and, with `newSession`, in a
  /// session of its own: no controlling terminal.
  /// With `holdsOutput`, the test keeps the write end of the program's
  /// standard output too, to fill the pipe (``fillOutput()``) so that the
  /// program's next write blocks.
  init(
    _ arguments: [String], environment: [String: String?] = [:], newSession: Bool = false,
    input: String? = nil, holdsOutput: Bool = false
  ) throws {
    _ = Self.brokenPipesIgnored
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
    if holdsOutput && spawned == 0 {
      outputWriteEnd = outputPipe[1]
    } else {
      close(outputPipe[1])
    }
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
    if outputWriteEnd >= 0 { close(outputWriteEnd) }
  }

  /// Fills the pipe of the program's standard output to its capacity
  /// (`F_GETPIPE_SZ`) with one write from the test's end: the program's next
  /// write blocks until the test reads. Returns the bytes written.
  func fillOutput() throws -> Int {
    let capacity = fcntl(outputWriteEnd, 1032)  // F_GETPIPE_SZ
    guard capacity > 0 else { throw WindowTestError(description: "F_GETPIPE_SZ: errno \(errno)") }
    let filler = [UInt8](repeating: UInt8(ascii: "."), count: Int(capacity))
    let written = filler.withUnsafeBytes { write(outputWriteEnd, $0.baseAddress, $0.count) }
    guard written == capacity else {
      throw WindowTestError(description: "filled \(written) of \(capacity) bytes")
    }
    close(outputWriteEnd)
    outputWriteEnd = -1
    return Int(capacity)
  }

  /// Waits until the program is blocked in `write(2)` on `descriptor`, as
  /// `/proc/PID/syscall` shows (system call 1, its first argument the
  /// descriptor): the event a test of a blocked answer waits for. Reading
  /// it for a hardened program needs root.
  func waitUntilBlockedWriting(to descriptor: Int32 = 1) throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let call = (try? String(contentsOfFile: "/proc/\(processID)/syscall", encoding: .utf8)) ?? ""
      let fields = call.split(separator: " ")
      if fields.count > 1, fields[0] == "1", Int32(fields[1].dropFirst(2), radix: 16) == descriptor
      {
        return
      }
      guard isRunning else { throw WindowTestError(description: "it ended instead of writing") }
      usleep(10_000)
    }
    throw WindowTestError(description: "\(processID) never blocked writing to \(descriptor)")
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

  /// Waits until the program has written `text` to its standard output, as
  /// ``waitForStandardError(containing:within:)`` does for its errors.
  func waitForStandardOutput(containing text: String, within limit: Duration = .seconds(60))
    -> Bool
  {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      drain()
      if String(decoding: outputBytes, as: UTF8.self).contains(text) { return true }
      guard isRunning else { return false }
      usleep(10_000)
    }
    return false
  }

  /// What the program wrote to its standard output so far, as read by the
  /// waits.
  func standardOutputSoFar() -> String {
    drain()
    return String(decoding: outputBytes, as: UTF8.self)
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
