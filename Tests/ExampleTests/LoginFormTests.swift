import Glibc
import PTYSupport
import TestSupport
import Testing

/// Keys as a terminal sends them, one write each.
private enum FormKey {
  static let tab = "\t"
  static let shiftTab = "\u{1B}[Z"
  static let up = "\u{1B}[A"
  static let down = "\u{1B}[B"
  static let left = "\u{1B}[D"
  static let enter = "\r"
  static let escape = "\u{1B}"
  static let controlC = "\u{03}"
  static let controlR = "\u{12}"
  static let focusOut = "\u{1B}[O"
}

/// `login-form ARGUMENTS` on a pty as a shell runs it, standard output and
/// error captured, once its form is drawn.
private func startForm(_ arguments: [String] = []) throws -> TerminalSession {
  var options = TerminalSession.Options()
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: builtExecutable("login-form"), arguments: arguments, options: options)
  try session.waitForText("Tab next")
  return session
}

extension TerminalSession {
  /// Waits until the line starting with `label` is `label` and `shown`.
  @discardableResult
  fileprivate func waitForField(_ label: String, _ shown: String) throws -> ScreenSnapshot {
    try waitForScreen("\(label) \(shown)") { $0.lines.contains(label + " " + shown) }
  }

  /// Presses Enter and checks that the form exits with status 0 having
  /// written exactly `output`.
  fileprivate func submitForm(
    expectingOutput output: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try type(FormKey.enter)
    #expect(try waitForExit() == .exited(0), sourceLocation: sourceLocation)
    #expect(try standardOutput() == output, sourceLocation: sourceLocation)
  }

  /// Types `password` into the focused password field and reveals it with
  /// the reveal key; returns once the field shows it.
  fileprivate func typeRevealed(_ password: String) throws {
    try type(password)
    try type(FormKey.controlR)
    try waitForField("Password:", password)
  }
}

@Suite("The login-form example: a TerminalForm of a user name and a password on a pty")
struct LoginFormTests {
  @Test(
    "focus goes both ways with Tab, Shift-Tab, Down and Up; each field keeps its text and caret")
  func focusOrder() throws {
    let session = try startForm()
    // Each step's keys, one write each, and what the field they reach then
    // shows. Nothing typed yet: the first empty field, the user's, has the
    // focus.
    let steps: [(keys: [String], field: String, shows: String)] = [
      (["bob"], "User:", "bob"),
      ([FormKey.tab, "pw1"], "Password:", "•••"),
      ([FormKey.shiftTab, "x"], "User:", "bobx"),
      ([FormKey.down, FormKey.left, "2"], "Password:", "••••"),
      ([FormKey.up, "y"], "User:", "bobxy"),
    ]
    for step in steps {
      for key in step.keys { try session.type(key) }
      try session.waitForField(step.field, step.shows)
    }
    try session.type(FormKey.tab)
    try session.type(FormKey.enter)
    #expect(try session.waitForExit() == .exited(0))
    // The caret stayed where Left put it: "2" went before the last character.
    #expect(try session.standardOutput() == "pw21")
    #expect(try session.standardError() == "user: bobxy\n")
  }

  @Test("the first empty field has the focus at first: the password, when the user is given")
  func firstEmptyField() throws {
    let session = try startForm(["alice"])
    try session.type("s3cret")
    try session.waitForField("Password:", "••••••")
    let screen = try session.screen()
    #expect(screen.lines.contains("User: alice"), "\(screen)")
    try session.submitForm(expectingOutput: "s3cret")
  }

  @Test("the reveal key shows the password field alone, kept across focus, masked at the end")
  func revealPerField() throws {
    let session = try startForm(["alice"])
    try session.type("hunter2")
    try session.waitForField("Password:", "•••••••")
    try session.type(FormKey.controlR)
    try session.waitForField("Password:", "hunter2")
    try session.waitForText("Ctrl+R hide")
    // On the user's field the reveal key does nothing, and the password stays
    // revealed while another field has the focus.
    try session.type(FormKey.shiftTab)
    try session.type(FormKey.controlR)
    try session.type("!")
    try session.waitForField("User:", "alice!")
    #expect(try session.screen().lines.contains("Password: hunter2"))
    try session.type(FormKey.tab)
    try session.type(FormKey.controlR)
    try session.waitForField("Password:", "•••••••")
    try session.type(FormKey.controlR)
    try session.waitForField("Password:", "hunter2")
    try session.type(FormKey.enter)
    #expect(try session.waitForExit() == .exited(0))
    // Submitted while revealed: the line is drawn masked before the exit.
    let after = try session.screen()
    #expect(after.lines.contains("Password: •••••••"), "\(after)")
    #expect(!after.shows("hunter2"), "\(after)")
    #expect(try session.standardOutput() == "hunter2")
  }

  @Test("losing the terminal's focus masks a revealed password")
  func focusLossMasks() throws {
    let session = try startForm(["alice"])
    try session.typeRevealed("hunter2")
    try session.type(FormKey.focusOut)
    try session.waitForField("Password:", "•••••••")
    try session.type(FormKey.escape)
    #expect(try session.waitForExit() == .exited(1))
  }

  @Test("Enter with the password empty is refused, with a message, and takes the focus there")
  func tooShort() throws {
    let session = try startForm()
    try session.type("carol")
    try session.type(FormKey.enter)  // to the password
    try session.type(FormKey.enter)  // submit: refused, the password is empty
    try session.waitForText("Too short")
    try session.type("pw")
    try session.waitForField("Password:", "••")
    try session.submitForm(expectingOutput: "pw")
    #expect(try session.standardError() == "user: carol\n")
  }

  @Test("SIGTSTP stops with the terminal restored and the password masked; SIGCONT brings it back")
  func stopAndContinue() throws {
    let session = try startForm(["alice"])
    try session.typeRevealed("ab")
    try session.send(signal: SIGTSTP)
    #expect(try session.waitForStatus() == .stopped(SIGTSTP))
    #expect(try session.attributes() == session.initialAttributes)
    let stopped = try session.screen()
    #expect(!stopped.shows("Password: ab"), "masked before the stop: \(stopped)")
    try session.send(signal: SIGCONT)
    #expect(try session.waitForStatus() == .continued)
    try session.waitForScreen("the form drawn again below") { screen in
      screen.lines.filter { $0 == "User: alice" }.count == 2
    }
    #expect(try session.attributes().isRaw)
    try session.type("cd")
    try session.type(FormKey.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.attributes() == session.initialAttributes)
    #expect(try session.standardOutput() == "abcd")
  }

  /// A way for the form to end, and the status it gives.
  struct Ending: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let arguments: [String]
    let key: String?
    let signal: Int32?
    let status: ProcessStatus
  }

  static let endings = [
    Ending(
      testDescription: "Esc", arguments: [], key: FormKey.escape, signal: nil, status: .exited(1)),
    Ending(
      testDescription: "^C", arguments: [], key: FormKey.controlC, signal: nil, status: .exited(1)),
    Ending(
      testDescription: "Enter", arguments: [], key: FormKey.enter, signal: nil, status: .exited(0)),
    Ending(
      testDescription: "the timeout", arguments: ["--timeout", "1"], key: nil, signal: nil,
      status: .exited(124)),
    Ending(
      testDescription: "SIGTERM", arguments: [], key: nil, signal: SIGTERM,
      status: .signaled(SIGTERM)),
    Ending(
      testDescription: "SIGHUP", arguments: [], key: nil, signal: SIGHUP, status: .signaled(SIGHUP)),
  ]

  @Test("every ending restores the terminal and leaves the password masked", arguments: endings)
  func endingsRestore(_ ending: Ending) throws {
    let session = try startForm(["alice"] + ending.arguments)
    try session.typeRevealed("hunter2")
    // The control: while the form runs the modes differ, so the check after
    // can fail.
    let during = try session.attributes()
    #expect(during.isRaw && during != session.initialAttributes)
    let duringScreen = try session.screen()
    #expect(duringScreen.bracketedPaste && duringScreen.focusReporting)
    if let key = ending.key { try session.type(key) }
    if let signal = ending.signal { try session.send(signal: signal) }
    #expect(try session.waitForExit() == ending.status)
    #expect(try session.attributes() == session.initialAttributes)
    let screen = try session.screen()
    #expect(!screen.bracketedPaste && !screen.focusReporting)
    #expect(!screen.shows("hunter2"), "nothing revealed stays: \(screen)")
    #expect(!screen.shows("Tab next"), "the hint is erased: \(screen)")
  }
}
