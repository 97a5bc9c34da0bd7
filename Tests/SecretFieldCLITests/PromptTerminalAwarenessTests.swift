import Glibc
import PTYSupport
import Testing

/// Keys as a terminal speaking the kitty keyboard protocol with flags 1, 8 and
/// 16 sends them: `CSI code ; modifiers ; text u`.
enum KittyKey {
  /// `a` with caps lock on: the caps bit (64) in the modifiers, `A` as text.
  static let aWithCapsLock = Key.csi + "97;65;65u"
  /// `b` with caps lock off: no modifiers, `b` as text.
  static let b = Key.csi + "98;;98u"
  /// `c` with caps lock off.
  static let c = Key.csi + "99;;99u"
  static let enter = Key.csi + "13u"
  static let escape = Key.csi + "27u"
  static let controlC = Key.csi + "99;5u"
}

/// How a prompt that pushed keyboard flags ends.
struct FlagsEnding: CustomTestStringConvertible, Sendable {
  let name: String
  let arguments: [String]
  let action: Ending.Action
  let status: ProcessStatus
  var testDescription: String { name }

  static let all = [
    FlagsEnding(
      name: "Enter", arguments: [], action: .key(KittyKey.enter), status: .exited(0)),
    FlagsEnding(
      name: "Esc", arguments: [], action: .key(KittyKey.escape), status: .exited(1)),
    FlagsEnding(
      name: "^C", arguments: [], action: .key(KittyKey.controlC), status: .exited(1)),
    FlagsEnding(
      name: "timeout", arguments: ["--timeout", "1"], action: .wait, status: .exited(124)),
    FlagsEnding(
      name: "SIGINT", arguments: [], action: .signal(SIGINT), status: .signaled(SIGINT)),
    FlagsEnding(
      name: "SIGTERM", arguments: [], action: .signal(SIGTERM), status: .signaled(SIGTERM)),
    FlagsEnding(
      name: "SIGHUP", arguments: [], action: .signal(SIGHUP), status: .signaled(SIGHUP)),
  ]
}

/// A terminal speaking the kitty keyboard protocol, answering every query.
func kittyTerminal() -> TerminalSession.Options {
  var options = TerminalSession.Options()
  options.supportsKeyboardProtocol = true
  return options
}

extension TerminalSession {
  /// Waits until the prompt pushed its keyboard flags (1 | 8 | 16).
  @discardableResult
  func waitForPushedFlags() throws -> ScreenSnapshot {
    try waitForScreen("keyboard flags 25 pushed") { $0.keyboardFlags == [25] }
  }
}

@Suite("The prompt knows what the terminal knows: caps lock, focus, recording")
struct PromptTerminalAwarenessTests {
  // MARK: Caps lock

  @Test("caps lock: the warning shows with the caps bit, goes with the next key without it")
  func capsLockWarning() throws {
    let session = try startPrompt(options: kittyTerminal())
    let pushed = try session.waitForPushedFlags()
    #expect(pushed.keyboardLog == ["?", ">25"], "asked first, then pushed")
    #expect(!pushed.shows("Caps Lock is on"))
    try session.type(KittyKey.aWithCapsLock)
    let on = try session.waitForText("Caps Lock is on")
    #expect(on.shows("Password: •"))
    try session.type(KittyKey.b)
    let off = try session.waitForScreen("the warning gone") {
      $0.shows("Password: ••") && !$0.shows("Caps Lock is on")
    }
    #expect(off.shows("Tab show"), "the hint stays")
    try session.type(KittyKey.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "Ab\n", "the text came from the text field")
    let after = try session.screen()
    #expect(after.keyboardFlags == [], "popped: \(after.keyboardLog)")
    #expect(after.keyboardLog.last == "<")
    #expect(!after.shows("Caps Lock is on"))
  }

  @Test("the pushed flags are popped on every way out", arguments: FlagsEnding.all)
  func flagsPopped(_ ending: FlagsEnding) throws {
    let session = try startPrompt(ending.arguments, options: kittyTerminal())
    // The control: while prompting the flags are on the terminal's stack, so
    // the check after can fail.
    try session.waitForPushedFlags()
    try session.type(KittyKey.aWithCapsLock)
    try session.waitForText("Caps Lock is on")
    try session.end(by: ending.action)
    #expect(try session.waitForExit() == ending.status)
    let after = try session.screen()
    #expect(after.keyboardFlags == [], "\(after.keyboardLog)")
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("stopped: the flags are popped; continued: pushed again, and caps lock still reported")
  func flagsAcrossStop() throws {
    let session = try startPrompt(options: kittyTerminal())
    try session.waitForPushedFlags()
    try session.type(KittyKey.b)
    try session.waitForMasks(1)
    try session.send(signal: SIGTSTP)
    #expect(try session.waitForStatus() == .stopped(SIGTSTP))
    #expect(try session.screen().keyboardFlags == [], "popped while stopped")
    try session.send(signal: SIGCONT)
    #expect(try session.waitForStatus() == .continued)
    try session.waitForPushedFlags()
    try session.type(KittyKey.aWithCapsLock)
    try session.waitForText("Caps Lock is on")
    try session.type(KittyKey.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "bA\n")
    #expect(try session.screen().keyboardFlags == [])
  }

  @Test(
    "a terminal that answers only the attributes request, or nothing: no flags, no warning, typing works at once",
    arguments: [true, false])
  func plainTerminal(answersDeviceAttributes: Bool) throws {
    var options = TerminalSession.Options()
    options.answersDeviceAttributes = answersDeviceAttributes
    let session = try startPrompt(options: options)
    // Typed right away: the prompt does not wait for answers that never come.
    try session.type("a")
    try session.type("b")
    try session.waitForMasks(2)
    try session.submit(expectingOutput: "ab\n")
    let after = try session.screen()
    #expect(after.keyboardLog == ["?"], "asked, never pushed: \(after.keyboardLog)")
    #expect(!after.contains("Caps Lock is on"))
    #expect(!after.contains("[?"), "no reply leaked onto the screen: \(after)")
  }

  @Test("the attributes reply is taken whole, never typed: keys around it insert as usual")
  func replyAmongKeys() throws {
    var options = TerminalSession.Options()
    options.answersDeviceAttributes = false
    let session = try startPrompt(options: options)
    // A late reply from the terminal between two keys.
    try session.type("x")
    try session.type(Key.csi + "?62;22c")
    try session.type("y")
    try session.waitForMasks(2)
    try session.submit(expectingOutput: "xy\n")
  }

  // MARK: Focus

  @Test("focus out while revealed masks the screen at once; focus in does not reveal again")
  func focusOutMasks() throws {
    let session = try startPrompt()
    try session.type("hunter2")
    try session.type(Key.tab)
    // The control: the screen does show the revealed text.
    try session.waitForText("Password: hunter2")
    try session.type(Key.csi + "O")
    let masked = try session.waitForText("Password: •••••••")
    #expect(!masked.contains("hunter2"))
    #expect(masked.shows("Tab show"))
    try session.type(Key.csi + "I")
    try session.type("!")
    let back = try session.waitForMasks(8)
    #expect(!back.contains("hunter2"))
    try session.submit(expectingOutput: "hunter2!\n")
  }

  // MARK: Recording

  @Test("ASCIINEMA_REC=1 in the session leader's environment only: Tab is refused, with why")
  func recordingRefusesReveal() throws {
    let session = try startPrompt(sessionLeaderEnvironment: ["ASCIINEMA_REC": "1"])
    try session.typeMasked("hunter2")
    try session.type(Key.tab)
    let refused = try session.waitForText(
      "asciinema is recording this terminal, so the password can't be shown.")
    #expect(!refused.contains("hunter2"))
    #expect(refused.shows("Password: •••••••"))
    try session.submit(expectingOutput: "hunter2\n")
    #expect(!(try session.screen().contains("hunter2")))
  }

  @Test("control: the same session without ASCIINEMA_REC reveals on Tab")
  func withoutRecordingRevealWorks() throws {
    let session = try startPrompt(sessionLeaderEnvironment: ["NOT_A_RECORDER": "1"])
    try session.type("hunter2")
    try session.type(Key.tab)
    let revealed = try session.waitForText("Password: hunter2")
    #expect(!revealed.contains("recording"))
    try session.type(Key.escape)
    #expect(try session.waitForExit() == .exited(1))
  }
}
