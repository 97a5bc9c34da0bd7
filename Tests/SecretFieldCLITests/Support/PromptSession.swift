import Glibc
import PTYSupport
import TestSupport
import Testing

/// The `secretfield` executable built beside the tests.
let secretfield = builtExecutable("secretfield")

/// `secretfield prompt ARGUMENTS` in a pty as a shell runs it, standard output
/// and error captured, waited for until `prompt` is on the screen (which it
/// draws after entering raw mode, so typing may start).
func startPrompt(
  _ arguments: [String] = [], command: String = "prompt", waitingFor prompt: String = "Password:",
  options: TerminalSession.Options = TerminalSession.Options()
) throws -> TerminalSession {
  var options = options
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: secretfield, arguments: [command] + arguments, options: options)
  try session.waitForText(prompt)
  return session
}

/// `secretfield prompt` whose session leader (the shell) has `environment`
/// added to its own; the prompt's own environment is left as it is.
func startPrompt(sessionLeaderEnvironment environment: [String: String]) throws -> TerminalSession {
  var options = TerminalSession.Options()
  options.sessionLeaderEnvironment = environment
  return try startPrompt(options: options)
}

/// `executable ARGUMENTS` in a pty with its standard output left on the
/// terminal, as in `secretfield prompt` typed alone at a shell; standard
/// error captured.
func startWithOutputOnTerminal(
  _ executable: String, _ arguments: [String]
) throws -> TerminalSession {
  var options = TerminalSession.Options()
  options.standardError = .captured
  return try TerminalSession(executable: executable, arguments: arguments, options: options)
}

/// `secretfield ARGUMENTS` without a controlling terminal, standard input
/// from `input`, standard output and error captured: for what needs no
/// terminal.
func runWithoutTerminal(
  _ arguments: [String], input: [UInt8]? = nil
) throws -> (status: ProcessStatus, output: String, error: String) {
  var options = TerminalSession.Options()
  options.hasControllingTerminal = false
  options.standardInput = input.map { .bytes($0) } ?? .null
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(executable: secretfield, arguments: arguments, options: options)
  let status = try session.waitForExit()
  return (
    status, String(decoding: try session.capturedOutput(stream: 1), as: UTF8.self),
    String(decoding: try session.capturedOutput(stream: 2), as: UTF8.self)
  )
}

extension TerminalSession {
  /// Waits until the prompt's line shows `count` masks.
  @discardableResult
  func waitForMasks(_ count: Int, prompt: String = "Password:") throws -> ScreenSnapshot {
    let line = prompt + " " + String(repeating: "•", count: count)
    return try waitForScreen("\(count) masks") { screen in
      screen.lines.contains { $0.hasPrefix(prompt) && $0 == (count == 0 ? prompt : line) }
    }
  }

  /// Types `text` and waits until the prompt's line shows a mask for each of
  /// its characters.
  @discardableResult
  func typeMasked(_ text: String, prompt: String = "Password:") throws -> ScreenSnapshot {
    try type(text)
    return try waitForMasks(text.count, prompt: prompt)
  }

  /// Checks that the prompt's modes are on: raw mode, bracketed paste and
  /// focus reports. The control of ``expectTerminalRestored(sourceLocation:)``,
  /// so that the comparison after can fail.
  func expectPromptModes(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let during = try attributes()
    #expect(
      during.isRaw && during != initialAttributes, "\(during)", sourceLocation: sourceLocation)
    let screen = try screen()
    #expect(screen.bracketedPaste && screen.focusReporting, sourceLocation: sourceLocation)
  }

  /// Checks that the terminal's modes are those it had before the program
  /// started: the termios, bracketed paste and focus reports off.
  func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let after = try attributes()
    #expect(
      after == initialAttributes, "\(after) vs \(initialAttributes)",
      sourceLocation: sourceLocation)
    let screen = try screen()
    #expect(
      !screen.bracketedPaste && !screen.focusReporting, "\(screen)", sourceLocation: sourceLocation)
  }

  /// Ends the prompt as `action` says: a key, a signal, or nothing (its
  /// timeout).
  func end(by action: Ending.Action) throws {
    switch action {
    case .key(let key): try type(key)
    case .signal(let number): try send(signal: number)
    case .wait: break
    }
  }

  /// Reveals the field with Tab, types `text`, and waits until the prompt's
  /// line shows it.
  @discardableResult
  func typeRevealed(_ text: String, prompt: String = "Password:") throws -> ScreenSnapshot {
    try type(Key.tab)
    try type(text)
    return try waitForText(prompt + " " + text)
  }

  /// Types `text`, then Enter in a write of its own.
  func typeLine(_ text: String) throws {
    try type(text)
    try type(Key.enter)
  }

  /// Presses Enter and checks that the program exits with status 0 having
  /// written exactly `output`.
  func submit(
    expectingOutput output: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try type(Key.enter)
    #expect(try waitForExit() == .exited(0), sourceLocation: sourceLocation)
    #expect(try standardOutput() == output, sourceLocation: sourceLocation)
  }

  /// Sends `signal` and checks that it stopped the job.
  func stop(
    by signal: Int32, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try send(signal: signal)
    #expect(try waitForStatus() == .stopped(signal), sourceLocation: sourceLocation)
  }

  /// Sends SIGCONT, checks that the job continued and waits until the prompt
  /// is drawn again, which `redrawn` tells from the screen.
  func continueJob(
    sourceLocation: SourceLocation = #_sourceLocation,
    untilRedrawn redrawn: (ScreenSnapshot) -> Bool
  ) throws {
    try send(signal: SIGCONT)
    #expect(try waitForStatus() == .continued, sourceLocation: sourceLocation)
    try waitForScreen("the prompt drawn again", until: redrawn)
  }

  /// Answers the question `prompt` and the confirmation after it with
  /// different text `attempts` times, waiting for each question first.
  func mismatchConfirmations(prompt: String = "Password:", attempts: Int = 3) throws {
    for attempt in 1...attempts {
      try waitForScreen("entry \(attempt)") { screen in
        screen.lines.filter { $0.hasPrefix(prompt) }.count == attempt
      }
      try type("one\r")
      try waitForScreen("confirmation \(attempt)") { screen in
        screen.lines.filter { $0.hasPrefix("Again:") }.count == attempt
      }
      try type("two\r")
    }
  }
}

extension String {
  /// Writes the string's UTF-8 to a new file at `path` (test data only).
  func write(toFile path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw HarnessError("cannot create \(path)") }
    defer { close(descriptor) }
    var text = self
    let written = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    guard written == utf8.count else { throw HarnessError("cannot write \(path)") }
  }
}

/// Removes a file a test made.
func removeFile(_ path: String) {
  unlink(path)
}

/// A path under `/tmp` no other test uses.
func temporaryPath(_ name: String) -> String {
  "/tmp/secretfield-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
}
