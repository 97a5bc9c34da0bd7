import Glibc
import PTYSupport
import TestSupport
import Testing

/// The probe, started in a pty as a shell would start it, and waited for until
/// the screen shows `shown` (`ready`: it is in raw mode; a mode's own prompt
/// otherwise).
func startProbe(
  _ arguments: [String] = [], options: TerminalSession.Options = TerminalSession.Options(),
  waitingFor shown: String = "ready"
) throws -> TerminalSession {
  let session = try TerminalSession(
    executable: builtExecutable("pty-probe"), arguments: arguments, options: options)
  try session.waitForText(shown)
  return session
}

/// Whether the probe restores the terminal (the case under test) or not (the
/// control, which the harness must catch).
enum Restoring: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case restores
  case control

  var arguments: [String] { self == .restores ? [] : ["--no-restore"] }
  var testDescription: String {
    self == .restores ? "the probe restores" : "control: the probe does not restore"
  }
}

/// A fatal signal and its name.
struct FatalSignal: CustomTestStringConvertible, Sendable {
  let number: Int32
  let name: String
  var testDescription: String { name }
  static let all = [
    FatalSignal(number: SIGINT, name: "SIGINT"), FatalSignal(number: SIGTERM, name: "SIGTERM"),
    FatalSignal(number: SIGHUP, name: "SIGHUP"),
    FatalSignal(number: __libc_current_sigrtmin(), name: "SIGRTMIN"),
    FatalSignal(number: __libc_current_sigrtmax(), name: "SIGRTMAX"),
  ]
}

@Suite("The pty harness sees the terminal modes a program leaves behind")
struct TerminalModesRestoreTests {
  @Test(
    "after Enter: exit 0 and the termios and private modes as before", arguments: Restoring.allCases
  )
  func afterSubmit(_ restoring: Restoring) throws {
    let session = try startProbe(restoring.arguments)
    let raw = try session.attributes()
    #expect(raw.isRaw, "\(raw)")
    let during = try session.screen()
    #expect(during.bracketedPaste && during.focusReporting)
    try session.type("a")
    try session.waitForText("text a")
    try session.type("\r")
    #expect(try session.waitForExit() == .exited(0))
    let after = try session.attributes()
    let screen = try session.waitForText("submitted")
    switch restoring {
    case .restores:
      #expect(after == session.initialAttributes, "\(after) vs \(session.initialAttributes)")
      #expect(!screen.bracketedPaste && !screen.focusReporting)
    case .control:
      #expect(after != session.initialAttributes)
      #expect(after.isRaw)
      #expect(screen.bracketedPaste && screen.focusReporting)
    }
  }

  @Test(
    "after a fatal signal: death by that signal and the termios as before",
    arguments: FatalSignal.all, Restoring.allCases)
  func afterFatalSignal(_ signal: FatalSignal, _ restoring: Restoring) throws {
    let session = try startProbe(restoring.arguments)
    try session.send(signal: signal.number)
    #expect(try session.waitForExit() == .signaled(signal.number))
    let after = try session.attributes()
    switch restoring {
    case .restores:
      #expect(after == session.initialAttributes, "\(after) vs \(session.initialAttributes)")
    case .control:
      #expect(after.isRaw, "\(after)")
    }
  }

  @Test(
    "SIGTSTP stops with the termios restored; SIGCONT brings raw mode back",
    arguments: Restoring.allCases)
  func stopAndContinue(_ restoring: Restoring) throws {
    let session = try startProbe(restoring.arguments)
    try session.type("a")
    try session.waitForText("text a")
    try session.send(signal: SIGTSTP)
    #expect(try session.waitForStatus() == .stopped(SIGTSTP))
    let stopped = try session.attributes()
    switch restoring {
    case .restores:
      #expect(stopped == session.initialAttributes, "\(stopped) vs \(session.initialAttributes)")
    case .control:
      #expect(stopped.isRaw, "\(stopped)")
    }
    try session.send(signal: SIGCONT)
    #expect(try session.waitForStatus() == .continued)
    try session.waitForText("resumed")
    let resumed = try session.attributes()
    #expect(resumed.isRaw, "\(resumed)")
    try session.type("b")
    try session.waitForText("text b")
    try session.type("\r")
    #expect(try session.waitForExit() == .exited(0))
  }

  @Test(
    "after SIGSTOP (which it cannot see) and a shell resetting the modes, SIGCONT brings raw mode back",
    arguments: Restoring.allCases)
  func uncatchableStop(_ restoring: Restoring) throws {
    let session = try startProbe(restoring.arguments)
    try session.send(signal: SIGSTOP)
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))
    try session.setAttributes(session.initialAttributes)
    try session.send(signal: SIGCONT)
    #expect(try session.waitForStatus() == .continued)
    try session.waitForText("resumed")
    let resumed = try session.attributes()
    switch restoring {
    case .restores: #expect(resumed.isRaw, "\(resumed)")
    case .control: #expect(!resumed.isRaw, "\(resumed)")
    }
  }

  @Test("kitty keyboard flags pushed are popped at exit", arguments: Restoring.allCases)
  func keyboardFlagsPopped(_ restoring: Restoring) throws {
    var options = TerminalSession.Options()
    options.supportsKeyboardProtocol = true
    let session = try startProbe(
      restoring.arguments + ["--keyboard-flags", "25"], options: options)
    #expect(try session.screen().keyboardFlags == [25])
    try session.type("\r")
    #expect(try session.waitForExit() == .exited(0))
    let screen = try session.screen()
    switch restoring {
    case .restores: #expect(screen.keyboardFlags == [], "\(screen.keyboardLog)")
    case .control: #expect(screen.keyboardFlags == [25], "\(screen.keyboardLog)")
    }
  }
}

@Suite("The pty harness types keys and reads the screen")
struct TerminalSessionTests {
  @Test("keys typed one sequence per write arrive decoded")
  func keysArriveDecoded() throws {
    let session = try startProbe()
    try session.type("\u{1B}[D")
    try session.waitForText("key moveLeft")
    try session.type("\u{1B}[1;5C")
    try session.waitForText("key moveWordRight")
    try session.type("é")
    try session.waitForText("text é")
    try session.type("\u{1B}[200~pasted\u{1B}[201~")
    try session.waitForText("key paste")
    try session.type("\u{1B}")
    try session.waitForText("cancelled")
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("a resize reaches the program as SIGWINCH with the new size")
  func resize() throws {
    let session = try startProbe()
    try session.resize(columns: 100, rows: 30)
    try session.waitForText("size 100x30")
  }

  @Test("without a controlling terminal the probe says so and exits 3")
  func noTerminal() throws {
    var options = TerminalSession.Options()
    options.hasControllingTerminal = false
    options.standardError = .captured
    let session = try TerminalSession(executable: builtExecutable("pty-probe"), options: options)
    #expect(try session.waitForExit() == .exited(3))
    let message = String(decoding: try session.capturedOutput(stream: 2), as: UTF8.self)
    #expect(message.contains("no terminal to prompt on"), "\(message)")
    #expect(message.contains("give the secret another way"), "\(message)")
  }
}
