import Foundation
import Glibc
import TestSupport

/// A program under test, run in a pseudo-terminal the way a shell runs a job,
/// with a terminal emulator reading its screen.
///
/// Three processes: the test; a helper (Debian's `python3` with `python3-pyte`)
/// that is both the terminal, holding the master side and feeding all output
/// to the emulator, and the session leader, holding the slave as its
/// controlling terminal; and the program, in its own process group made the
/// terminal's foreground group (`setpgid`, `tcsetpgrp`). The program's group
/// is not orphaned, so `SIGTSTP` stops it as it would under a shell.
///
/// Every call is synchronous. Waits (`waitForScreen`, `waitForStatus`) wait for
/// a condition with a generous deadline and fail with the screen when it does
/// not come: they never assert how fast something happened.
public final class TerminalSession {
  /// How the session is set up.
  public struct Options {
    /// The terminal's width.
    public var columns = 80
    /// The terminal's height.
    public var rows = 24
    /// The program's environment. `TERM` and `LANG` are added when missing.
    public var environment: [String: String] = [:]
    /// Variables added to the environment the session leader (the helper) is
    /// started with, which `/proc/PID/environ` of the leader shows. The
    /// program does not get them unless ``environment`` has them too.
    public var sessionLeaderEnvironment: [String: String] = [:]
    /// The terminal answers the primary device attributes request (`CSI c`),
    /// as every terminal does.
    public var answersDeviceAttributes = true
    /// The terminal speaks the kitty keyboard protocol: it answers the flags
    /// query (`CSI ? u`). Pushes and pops are tracked either way.
    public var supportsKeyboardProtocol = false
    /// Where the program's standard input comes from.
    public var standardInput: Stream = .terminal
    /// Where its standard output goes.
    public var standardOutput: Stream = .terminal
    /// Where its standard error goes.
    public var standardError: Stream = .terminal
    /// The program gets the pty as its controlling terminal. When false it
    /// runs in a session of its own without one (and `.terminal` streams
    /// become `/dev/null`).
    public var hasControllingTerminal = true
    /// The program's working directory; the helper's when nil. A core file
    /// named by a relative `core_pattern` lands there.
    public var workingDirectory: String?
    /// The program starts with `RLIMIT_CORE` raised to its hard limit
    /// (`ulimit -c unlimited`), so only the program itself can keep a core
    /// file from being written.
    public var allowsCoreDumps = false

    /// An 80x24 UTF-8 terminal with the defaults below.
    public init() {}
  }

  /// A standard stream of the program.
  public enum Stream: Equatable {
    /// The pty.
    case terminal
    /// A pipe the helper reads; see ``capturedOutput(stream:untilClosed:)``.
    case captured
    /// `/dev/null`.
    case null
    /// A pipe holding these bytes, then end of file (standard input only).
    case bytes([UInt8])
  }

  /// The pty's slave path, as `/dev/pts/3`.
  public let terminalPath: String
  /// The program's process ID, which is also its process group ID.
  public let processID: Int32
  /// The pty's termios before the program started.
  public let initialAttributes: TerminalAttributes
  /// The session leader's process ID: the helper's, whose session has the pty
  /// as its controlling terminal.
  public let sessionLeaderID: Int32

  /// Whether the kernel wrote a core dump when the program died by a signal
  /// (`WCOREDUMP` of its wait status); false until it has.
  public private(set) var dumpedCore = false

  private let helper: HelperProcess
  private let slave: Int32

  /// Starts the helper, the pty, and `executable` with `arguments` in it.
  public init(
    executable: String, arguments: [String] = [], options: Options = Options()
  ) throws {
    helper = try HelperProcess(extraEnvironment: options.sessionLeaderEnvironment)
    let hello = try helper.request([
      "columns": options.columns, "rows": options.rows,
      "answers_device_attributes": options.answersDeviceAttributes,
      "keyboard_protocol": options.supportsKeyboardProtocol,
    ])
    guard let path = hello["terminal"] as? String else {
      throw HarnessError("the terminal helper said no terminal: \(hello)")
    }
    terminalPath = path
    sessionLeaderID = helper.processID
    slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      throw HarnessError("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    initialAttributes = try TerminalAttributes.read(from: slave)

    var environment = options.environment
    if environment["TERM"] == nil { environment["TERM"] = "xterm-256color" }
    if environment["LANG"] == nil && environment["LC_ALL"] == nil {
      environment["LANG"] = "C.UTF-8"
    }
    var command: [String: Any] = [
      "command": "spawn", "argv": [executable] + arguments, "env": environment,
      "controlling_terminal": options.hasControllingTerminal,
      "core_dumps": options.allowsCoreDumps,
    ]
    if let directory = options.workingDirectory { command["cwd"] = directory }
    for (key, stream) in [
      ("stdin", options.standardInput), ("stdout", options.standardOutput),
      ("stderr", options.standardError),
    ] {
      switch stream {
      case .terminal: command[key] = "terminal"
      case .captured: command[key] = "pipe"
      case .null: command[key] = "null"
      case .bytes(let bytes):
        command[key] = "data"
        command["stdin_data"] = hex(bytes)
      }
    }
    let spawned = try helper.request(command)
    guard let pid = spawned["pid"] as? Int else {
      throw HarnessError("the terminal helper could not start \(executable): \(spawned)")
    }
    processID = Int32(pid)
  }

  deinit {
    kill(-processID, SIGKILL)
    _ = try? helper.request(["command": "quit"])
    close(slave)
  }

  // MARK: Typing

  /// Types `text` as one `write` to the master: one key or one sequence.
  public func type(_ text: String) throws {
    try type(bytes: Array(text.utf8))
  }

  /// Types `bytes` as one `write` to the master.
  public func type(bytes: [UInt8]) throws {
    _ = try helper.request(["command": "type", "bytes": hex(bytes)])
  }

  /// Types `bytes` again and again, one `write` each, until the program ends
  /// (as a user who keeps typing after Enter); returns how many writes went
  /// in. The program's statuses meanwhile are kept for ``waitForStatus(timeout:)``.
  @discardableResult
  public func typeUntilExit(_ bytes: [UInt8], timeout: Duration = .seconds(30)) throws -> Int {
    let reply = try helper.request([
      "command": "type_until_exit", "bytes": hex(bytes), "timeout": seconds(timeout),
    ])
    return reply["writes"] as? Int ?? 0
  }

  /// Types each key in turn, one `write` each.
  public func type(keys: [String]) throws {
    for key in keys { try type(key) }
  }

  // MARK: The screen

  /// The screen now, after taking in what output is there.
  public func screen() throws -> ScreenSnapshot {
    try snapshot(helper.request(["command": "screen"]))
  }

  /// Waits until `condition` holds for the screen, checking after each chunk of
  /// output; returns that screen.
  ///
  /// - Throws: ``HarnessError`` with `description` and the last screen when the
  ///   deadline passes first. The deadline is generous: it bounds a hang, it
  ///   does not measure speed.
  @discardableResult
  public func waitForScreen(
    _ description: String, timeout: Duration = .seconds(30),
    until condition: (ScreenSnapshot) -> Bool
  ) throws -> ScreenSnapshot {
    let deadline = ContinuousClock.now + timeout
    var current = try screen()
    while !condition(current) {
      let left = deadline - .now
      guard left > .zero else {
        throw HarnessError("timed out waiting for \(description); \(current)")
      }
      current = try snapshot(
        helper.request([
          "command": "wait_screen", "since": current.version, "timeout": seconds(left),
        ]))
    }
    return current
  }

  /// Waits until `text` is on the visible screen.
  @discardableResult
  public func waitForText(_ text: String, timeout: Duration = .seconds(30)) throws
    -> ScreenSnapshot
  {
    try waitForScreen("\"\(text)\" on the screen", timeout: timeout) { $0.shows(text) }
  }

  /// Changes the window size (`TIOCSWINSZ` on the master: the kernel sends
  /// `SIGWINCH` to the foreground group) and the emulator's.
  public func resize(columns: Int, rows: Int) throws {
    _ = try helper.request(["command": "resize", "columns": columns, "rows": rows])
  }

  // MARK: Modes, signals, status

  /// The pty's termios now (`tcgetattr` on the slave).
  public func attributes() throws -> TerminalAttributes {
    try TerminalAttributes.read(from: slave)
  }

  /// Waits until the terminal's input queue holds at least `count` bytes
  /// that the program has not read (`FIONREAD` on the slave): what was typed
  /// has reached the line discipline, which the kernel does after the write
  /// to the master returned (a pty's buffer is pushed by a work queue), so a
  /// flush after this point drops it.
  public func waitForQueuedInput(atLeast count: Int, timeout: Duration = .seconds(30)) throws {
    let deadline = ContinuousClock.now + timeout
    while true {
      var queued: Int32 = 0
      guard ioctl(slave, UInt(FIONREAD), &queued) == 0 else {
        throw HarnessError("FIONREAD failed: \(String(cString: strerror(errno)))")
      }
      if queued >= count { return }
      guard ContinuousClock.now < deadline else {
        throw HarnessError("timed out waiting for \(count) bytes of input; \(queued) queued")
      }
      usleep(5_000)
    }
  }

  /// Sets the pty's termios from outside (`tcsetattr` on the slave), as a shell
  /// does when a job stops: it puts its own modes back.
  public func setAttributes(_ attributes: TerminalAttributes) throws {
    var raw = termios()
    guard tcgetattr(slave, &raw) == 0 else {
      throw HarnessError("tcgetattr failed: \(String(cString: strerror(errno)))")
    }
    raw.c_iflag = attributes.inputFlags
    raw.c_oflag = attributes.outputFlags
    raw.c_cflag = attributes.controlFlags
    raw.c_lflag = attributes.localFlags
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      for (index, value) in attributes.controlCharacters.enumerated() where index < cc.count {
        cc[index] = value
      }
    }
    guard tcsetattr(slave, TCSANOW, &raw) == 0 else {
      throw HarnessError("tcsetattr failed: \(String(cString: strerror(errno)))")
    }
  }

  /// Sends `signal` to the program's process group, as the terminal driver or a
  /// shell's `kill %1` would.
  public func send(signal: Int32) throws {
    guard kill(-processID, signal) == 0 else {
      throw HarnessError("kill(-\(processID), \(signal)): \(String(cString: strerror(errno)))")
    }
  }

  /// Makes the session leader's own group the terminal's foreground group, as
  /// a shell does for `bg` (or when a job stops); the program is then in the
  /// background.
  public func takeTerminal() throws {
    _ = try helper.request(["command": "foreground", "to": "shell"])
  }

  /// Makes the program's group the terminal's foreground group again, as a
  /// shell does for `fg` (which sends `SIGCONT` only to a stopped job).
  public func giveTerminal() throws {
    _ = try helper.request(["command": "foreground", "to": "program"])
  }

  /// The next change of the program's state (`waitpid` with `WUNTRACED |
  /// WCONTINUED` in the session leader).
  public func waitForStatus(timeout: Duration = .seconds(30)) throws -> ProcessStatus {
    let reply = try helper.request(["command": "wait_status", "timeout": seconds(timeout)])
    guard let status = reply["status"] as? [String: Any], let kind = status["kind"] as? String,
      let value = status["value"] as? Int
    else {
      throw HarnessError("the program's state did not change in time; \(try screen())")
    }
    switch kind {
    case "exited": return .exited(Int32(value))
    case "signaled":
      dumpedCore = status["core_dumped"] as? Bool ?? false
      return .signaled(Int32(value))
    case "stopped": return .stopped(Int32(value))
    default: return .continued
    }
  }

  /// Waits until the program ends, skipping stops and continues.
  public func waitForExit(timeout: Duration = .seconds(30)) throws -> ProcessStatus {
    let deadline = ContinuousClock.now + timeout
    while true {
      let status = try waitForStatus(timeout: max(.zero, deadline - .now))
      if status.hasEnded { return status }
    }
  }

  /// What the program wrote to a `.captured` stream (1 for standard output, 2
  /// for standard error), optionally after waiting for it to close.
  public func capturedOutput(stream: Int = 1, untilClosed: Bool = true) throws -> [UInt8] {
    let reply = try helper.request([
      "command": "captured", "stream": stream, "until_closed": untilClosed, "timeout": 30,
    ])
    return bytes(fromHex: reply["bytes"] as? String ?? "")
  }

  /// What the program wrote to standard output (`.captured`), as UTF-8,
  /// once it closed it.
  public func standardOutput() throws -> String {
    String(decoding: try capturedOutput(stream: 1), as: UTF8.self)
  }

  /// What the program wrote to standard error (`.captured`), as UTF-8, once
  /// it closed it.
  public func standardError() throws -> String {
    String(decoding: try capturedOutput(stream: 2), as: UTF8.self)
  }

  // MARK: Helpers

  private func snapshot(_ reply: [String: Any]) throws -> ScreenSnapshot {
    guard let version = reply["version"] as? Int, let lines = reply["lines"] as? [String],
      let history = reply["history"] as? [String], let cursor = reply["cursor"] as? [Int]
    else { throw HarnessError("the terminal helper sent no screen: \(reply)") }
    return ScreenSnapshot(
      version: version, lines: lines, scrollback: history, cursorRow: cursor[0],
      cursorColumn: cursor[1], bracketedPaste: reply["bracketed_paste"] as? Bool ?? false,
      focusReporting: reply["focus_reporting"] as? Bool ?? false,
      keyboardFlags: reply["keyboard_flags"] as? [Int] ?? [],
      keyboardLog: reply["keyboard_log"] as? [String] ?? [],
      transcript: reply["transcript"] as? String ?? "")
  }

  private func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

func hex(_ bytes: [UInt8]) -> String {
  bytes.map { String(format: "%02x", $0) }.joined()
}

func bytes(fromHex text: String) -> [UInt8] {
  var result: [UInt8] = []
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(index, offsetBy: 2)
    result.append(UInt8(text[index..<next], radix: 16) ?? 0)
    index = next
  }
  return result
}
