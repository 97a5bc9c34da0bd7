import Glibc
import PTYSupport
import Testing

/// A way for the prompt to end, and the status the table gives it.
struct Ending: CustomTestStringConvertible, Sendable {
  enum Action: Sendable {
    case key(String)
    case signal(Int32)
    case wait
  }

  let name: String
  let arguments: [String]
  let typed: String
  let action: Action
  let status: ProcessStatus
  let output: String
  var testDescription: String { name }

  static let all = [
    Ending(
      name: "Enter: exit 0", arguments: [], typed: "ab", action: .key(Key.enter),
      status: .exited(0), output: "ab\n"),
    Ending(
      name: "Esc: exit 1", arguments: [], typed: "ab", action: .key(Key.escape),
      status: .exited(1), output: ""),
    Ending(
      name: "^C: exit 1", arguments: [], typed: "ab", action: .key(Key.controlC),
      status: .exited(1), output: ""),
    Ending(
      name: "^D on an empty field: exit 1", arguments: [], typed: "", action: .key(Key.controlD),
      status: .exited(1), output: ""),
    Ending(
      name: "timeout: exit 124", arguments: ["--timeout", "1"], typed: "ab", action: .wait,
      status: .exited(124), output: ""),
    Ending(
      name: "SIGINT: death by SIGINT", arguments: [], typed: "ab", action: .signal(SIGINT),
      status: .signaled(SIGINT), output: ""),
    Ending(
      name: "SIGTERM: death by SIGTERM", arguments: [], typed: "ab", action: .signal(SIGTERM),
      status: .signaled(SIGTERM), output: ""),
    Ending(
      name: "SIGHUP: death by SIGHUP", arguments: [], typed: "ab", action: .signal(SIGHUP),
      status: .signaled(SIGHUP), output: ""),
  ]
}

@Suite("secretfield prompt leaves the terminal as it found it")
struct PromptTerminalStateTests {
  @Test("the termios and private modes after each ending equal those before", arguments: Ending.all)
  func restored(_ ending: Ending) throws {
    let session = try startPrompt(ending.arguments)
    if !ending.typed.isEmpty {
      try session.typeMasked(ending.typed)
    }
    // The control: while prompting the modes differ, so the comparison after
    // can fail.
    try session.expectPromptModes()
    try session.end(by: ending.action)
    #expect(try session.waitForExit() == ending.status)
    try session.expectTerminalRestored()
    let screen = try session.screen()
    #expect(!screen.shows("Tab show"), "the hint line is erased: \(screen)")
    #expect(try session.standardOutput() == ending.output)
  }

  @Test("SIGTSTP stops with the termios restored; SIGCONT brings the prompt back, text kept")
  func stopAndContinue() throws {
    let session = try Self.startStopped(by: SIGTSTP)
    let stopped = try session.attributes()
    #expect(stopped == session.initialAttributes, "\(stopped) vs \(session.initialAttributes)")
    try continueAndFinish(session)
  }

  @Test("continued in the background (bg), it stops the job by SIGTTOU; fg brings it back")
  func continuedInBackground() throws {
    let session = try Self.startStopped(by: SIGTSTP)
    // bg: the shell keeps the terminal and continues the job.
    try session.takeTerminal()
    try session.send(signal: SIGCONT)
    // The continue and the stop after it may come to the shell as one change.
    var status = try session.waitForStatus()
    if status == .continued { status = try session.waitForStatus() }
    #expect(status == .stopped(SIGTTOU), "stopped to wait for fg")
    #expect(try session.attributes() == session.initialAttributes)
    // fg: the terminal back, and SIGCONT since the job is stopped.
    try session.giveTerminal()
    try continueAndFinish(session)
  }

  @Test("^Z suspends as the terminal's suspend key would, and the text survives")
  func suspendKey() throws {
    let session = try startPrompt()
    try session.typeRevealed("ab")
    try session.type(Key.controlZ)
    #expect(try session.waitForStatus() == .stopped(SIGTSTP))
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!(try session.screen().contains("Password: ab")), "masked before stopping")
    try session.continueJob { screen in
      screen.lines.filter { $0.hasPrefix("Password:") }.count == 2
    }
    try session.type("c")
    try session.submit(expectingOutput: "abc\n")
  }

  @Test("a key typed while stopped by SIGSTOP, the modes left raw, is kept after SIGCONT")
  func keyTypedAcrossUncatchableStop() throws {
    let session = try Self.startStopped(by: SIGSTOP)
    // Typed while raw mode is still on, so nothing echoed it: the key waits in
    // the terminal's queue, and the prompt sees it together with the SIGCONT.
    try session.type("c")
    try session.continueJob { screen in
      screen.transcript.ranges(of: "Password: ").count == 2
    }
    try session.submit(expectingOutput: "abc\n")
  }

  @Test("control: a key the shell's modes echoed while stopped by SIGSTOP is dropped")
  func echoedKeyAcrossUncatchableStop() throws {
    let session = try Self.startStopped(by: SIGSTOP)
    // As a shell does for a stopped job: its own modes back, so "x" is echoed.
    try session.setAttributes(session.initialAttributes)
    try session.type("x")
    try session.waitForText("Password: ••x")
    try session.continueJob { screen in
      screen.transcript.ranges(of: "Password: ").count == 2
    }
    #expect(try session.attributes().isRaw)
    try session.type("c")
    try session.submit(expectingOutput: "abc\n")
  }

  @Test("a resize lays the line out again for the new width")
  func resize() throws {
    let session = try startPrompt()
    try session.type(String(repeating: "a", count: 40))
    try session.waitForMasks(40)
    try session.resize(columns: 30, rows: 24)
    try session.waitForScreen("the line within 30 columns") { screen in
      screen.lines.contains { $0 == "Password: " + String(repeating: "•", count: 19) }
    }
    try session.submit(expectingOutput: String(repeating: "a", count: 40) + "\n")
  }

  /// A prompt with "ab" typed, then stopped by `signal`.
  private static func startStopped(by signal: Int32) throws -> TerminalSession {
    let session = try startPrompt()
    try session.typeMasked("ab")
    try session.stop(by: signal)
    return session
  }

  /// Continues a prompt stopped with "ab" typed, checks that it is drawn
  /// again in raw mode, then finishes the entry and checks that the terminal
  /// is restored after it.
  private func continueAndFinish(_ session: TerminalSession) throws {
    try session.continueJob { screen in
      screen.lines.filter { $0 == "Password: ••" }.count == 2
    }
    #expect(try session.attributes().isRaw)
    try session.type("cd")
    try session.submit(expectingOutput: "abcd\n")
    #expect(try session.attributes() == session.initialAttributes)
  }
}
