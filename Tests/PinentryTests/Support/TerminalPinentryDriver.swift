import PinentryTerminal
import Glibc
import PTYSupport
import SecureMemory
import TestSupport
import Testing
import ToolSupport

/// `pinentry-secretfield` built beside the tests.
let pinentrySecretfield = builtExecutable("pinentry-secretfield")
/// `secretfield-window`, whose `pinentry` falls back to the terminal without a
/// display.
let secretfieldWindow = builtExecutable("secretfield-window")

/// A user's terminal with our pinentry asking on it, driven as gpg-agent
/// drives a pinentry.
///
/// The terminal is a pty run by ``PTYSupport/TerminalSession`` with a program
/// in its foreground that does not read it (`sleep`, standing for the `gpg`
/// that waits for its agent), and the emulator reading its screen. The
/// pinentry is started apart from it, as gpg-agent starts it: in a session of
/// its own without a controlling terminal (`setsid`), Assuan on pipes, and the
/// terminal named with `OPTION ttyname`.
final class TerminalPinentryDriver {
  let terminal: TerminalSession
  let requests: Pipe
  let responses: Pipe
  let process: TestProcess
  private var reader: SecureLineReader

  /// Starts the terminal and the pinentry, reads the greeting, and sends the
  /// options gpg-agent sends (`ttyname` unless `namesTerminal` is false).
  ///
  /// `environment` adds `NAME=value` entries to the pinentry's. With
  /// `coreDumpsIn`, the pinentry starts in that directory with core dumps
  /// allowed by the limit (`ulimit -c unlimited`; the machine's
  /// `core_pattern` is a relative `core`), so a core it wrote would be there;
  /// `standardError` takes its descriptor 2.
  init(
    program: String = pinentrySecretfield, namesTerminal: Bool = true, arguments: [String] = [],
    terminalOptions: TerminalSession.Options = TerminalSession.Options(),
    environment: [String] = [], coreDumpsIn directory: String? = nil,
    standardError: Int32? = nil
  ) throws {
    terminal = try TerminalSession(
      executable: "/bin/sleep", arguments: ["3600"], options: terminalOptions)
    requests = try Pipe()
    responses = try Pipe()
    let start = Self.start(program, arguments: arguments, coreDumpsIn: directory)
    process = try TestProcess(
      [start.path] + start.arguments,
      environment: .entries(
        ["TERM=xterm-256color", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"] + environment),
      standardInput: .descriptor(requests.readEnd),
      standardOutput: .descriptor(responses.writeEnd),
      standardError: standardError.map { .descriptor($0) } ?? .inherit)
    requests.closeReadEnd()
    responses.closeWriteEnd()
    reader = try SecureLineReader(descriptor: responses.readEnd)
    #expect(try reader.nextText() == "OK Pleased to meet you")
    var options = ["OPTION ttytype=xterm-256color", "OPTION lc-ctype=C.UTF-8"]
    if namesTerminal { options.insert("OPTION ttyname=\(terminal.terminalPath)", at: 0) }
    for option in options { try expectOK(option) }
  }

  /// How to start `program` as gpg-agent does, in a session of its own
  /// (`setsid`); with `directory`, first `cd` there and allow core dumps.
  static func start(
    _ program: String, arguments: [String], coreDumpsIn directory: String?
  ) -> (path: String, arguments: [String]) {
    guard let directory else { return ("/usr/bin/setsid", [program] + arguments) }
    let script = "ulimit -c unlimited && cd \"$1\" && shift && exec /usr/bin/setsid \"$@\""
    return ("/bin/sh", ["-c", script, "sh", directory, program] + arguments)
  }

  /// Sends one request line.
  func send(_ line: String) {
    requests.send(Array((line + "\n").utf8))
  }

  /// The next response line (the test's oracle: a passphrase in it is one the
  /// test typed).
  func nextLine() throws -> String {
    try reader.nextText()
  }

  /// Sends `line` and expects `OK`.
  func expectOK(_ line: String) throws {
    send(line)
    let answer = try nextLine()
    #expect(answer == "OK", "\(line) answered \(answer)")
  }

  /// Sets the prompt, sends `GETPIN`, and waits for the empty field after
  /// `prompt`.
  func startGetPin(prompt: String) throws {
    try expectOK("SETPROMPT \(prompt)")
    send("GETPIN")
    try waitForMasks(0, prompt: prompt)
  }

  /// Sets the prompt, sends `GETPIN`, and waits until the pinentry has
  /// pushed its keyboard flags (25, the kitty protocol's) with the cursor on
  /// the line of `prompt`.
  func startKeyboardProtocolGetPin(prompt: String) throws {
    try expectOK("SETPROMPT \(prompt)")
    send("GETPIN")
    try terminal.waitForScreen("keyboard flags pushed at \(prompt)") {
      $0.keyboardFlags == [25] && $0.cursorLine.hasPrefix(prompt)
    }
  }

  /// Expects the answer to a `GETPIN`: the data line `D TEXT`, then `OK`.
  func expectData(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try nextLine() == "D \(text)", sourceLocation: sourceLocation)
    #expect(try nextLine() == "OK", sourceLocation: sourceLocation)
  }

  /// Types Enter and expects the answer to the `GETPIN`: `D TEXT`, `OK`.
  func submit(expecting text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try type([Key.enter])
    try expectData(text, sourceLocation: sourceLocation)
  }

  /// Sends the test hook's fault trigger and expects the pinentry to die by
  /// `signal`.
  func fault(expectingDeathBy signal: Int32, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    kill(process.processID, TestHook.faultTrigger)
    try #require(process.waitForEnd(), "the pinentry dies", sourceLocation: sourceLocation)
    #expect(process.terminatingSignal == signal, sourceLocation: sourceLocation)
  }

  /// Expects the terminal as it was before the pinentry: its termios, and
  /// neither bracketed paste nor focus reporting on; returns the screen.
  @discardableResult
  func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ScreenSnapshot
  {
    let after = try terminal.attributes()
    #expect(after == terminal.initialAttributes, "\(after)", sourceLocation: sourceLocation)
    let screen = try terminal.screen()
    #expect(
      !screen.bracketedPaste && !screen.focusReporting, "\(screen)", sourceLocation: sourceLocation)
    return screen
  }

  /// Says `BYE`, expects the answer, and returns how the pinentry ended.
  func bye() throws -> Int32? {
    send("BYE")
    #expect(try nextLine() == "OK closing connection")
    guard process.waitForEnd() else { return nil }
    return process.exitCode
  }

  /// Closes the client's ends of both pipes, as a client that exits or is
  /// killed does.
  func hangUp() {
    requests.closeWriteEnd()
    responses.closeReadEnd()
  }

  /// Closes only the client's end of the requests: it sends no more, but
  /// still reads the answers.
  func closeRequests() {
    requests.closeWriteEnd()
  }

  /// Types `keys`, one write each, waiting after each for the screen to take
  /// it in when `waitingForScreen`.
  func type(_ keys: [String]) throws {
    for key in keys { try terminal.type(key) }
  }

  /// Waits until the prompt's line (starting with `prompt`) shows `count`
  /// masks.
  @discardableResult
  func waitForMasks(_ count: Int, prompt: String) throws -> ScreenSnapshot {
    let line = prompt + " " + String(repeating: "\u{2022}", count: count)
    return try terminal.waitForScreen("\(count) masks after \(prompt)") { screen in
      screen.cursorLine == (count == 0 ? prompt : line)
    }
  }
}
