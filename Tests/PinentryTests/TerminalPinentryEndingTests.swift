import PinentryTerminal
import Glibc
import PTYSupport
import TestSupport
import Testing

private let canRun = access(pinentrySecretfield, X_OK) == 0 && access("/usr/bin/setsid", X_OK) == 0

/// A way for a `GETPIN` on the terminal to end, and what the client and the
/// process see.
struct PinEnding: CustomTestStringConvertible, Sendable {
  enum Action: Sendable {
    case key(String)
    case signal(Int32)
    case clientHangUp
    case wait
  }
  enum Afterwards: Sendable, Equatable {
    /// The session goes on: `BYE` ends it with status 0.
    case sessionGoesOn
    /// The pinentry closes the connection and exits with status 0.
    case exits
    /// The pinentry dies by this signal, the terminal restored first.
    case diesBy(Int32)
  }

  let name: String
  var before: [String] = []
  let typed: String
  let action: Action
  /// The response lines to the GETPIN, nil when the pinentry dies first.
  let answer: [String]?
  let afterwards: Afterwards
  var testDescription: String { name }

  static let all = [
    PinEnding(
      name: "Enter: the D line and OK", typed: "a%b", action: .key(Key.enter),
      answer: ["D a%25b", "OK"], afterwards: .sessionGoesOn),
    PinEnding(
      name: "Esc: cancelled", typed: "ab", action: .key(Key.escape),
      answer: ["ERR 83886179 Operation cancelled <Pinentry>"], afterwards: .sessionGoesOn),
    PinEnding(
      name: "^D on an empty field: cancelled", typed: "", action: .key(Key.controlD),
      answer: ["ERR 83886179 Operation cancelled <Pinentry>"], afterwards: .sessionGoesOn),
    PinEnding(
      name: "^C: fully cancelled, connection closed", typed: "ab", action: .key(Key.controlC),
      answer: ["ERR 83886278 Operation fully cancelled <Pinentry>"], afterwards: .exits),
    PinEnding(
      name: "SETTIMEOUT 2 runs out: timeout", before: ["SETTIMEOUT 2"], typed: "",
      action: .wait, answer: ["ERR 83886142 Timeout <Pinentry>"], afterwards: .sessionGoesOn),
    PinEnding(
      name: "the agent hangs up: death by SIGHUP", typed: "ab", action: .clientHangUp,
      answer: nil, afterwards: .diesBy(SIGHUP)),
    PinEnding(
      name: "SIGTERM: death by SIGTERM", typed: "ab", action: .signal(SIGTERM), answer: nil,
      afterwards: .diesBy(SIGTERM)),
    PinEnding(
      name: "SIGINT (the agent's cancel): death by SIGINT", typed: "ab", action: .signal(SIGINT),
      answer: nil, afterwards: .diesBy(SIGINT)),
  ]
}

/// A way for a `CONFIRM` or `MESSAGE` on the terminal to end.
struct ConfirmEnding: CustomTestStringConvertible, Sendable {
  let name: String
  var before: [String] = []
  let command: String
  let keys: [String]
  let answer: String
  var testDescription: String { name }

  static let all = [
    ConfirmEnding(
      name: "CONFIRM, Enter on OK: OK", command: "CONFIRM", keys: [Key.enter], answer: "OK"),
    ConfirmEnding(
      name: "CONFIRM, Esc: cancelled", command: "CONFIRM", keys: [Key.escape],
      answer: "ERR 83886179 Operation cancelled <Pinentry>"),
    ConfirmEnding(
      name: "CONFIRM, Tab then Enter on Cancel: cancelled", command: "CONFIRM",
      keys: [Key.tab, Key.enter], answer: "ERR 83886179 Operation cancelled <Pinentry>"),
    ConfirmEnding(
      name: "CONFIRM with SETNOTOK, Right then Enter: not confirmed", before: ["SETNOTOK _No"],
      command: "CONFIRM", keys: [Key.right, Key.enter],
      answer: "ERR 83886194 Not confirmed <Pinentry>"),
    ConfirmEnding(
      name: "CONFIRM, Left wraps to Cancel: cancelled", command: "CONFIRM",
      keys: [Key.left, Key.enter], answer: "ERR 83886179 Operation cancelled <Pinentry>"),
    ConfirmEnding(
      name: "CONFIRM, ^C: fully cancelled", command: "CONFIRM", keys: [Key.controlC],
      answer: "ERR 83886278 Operation fully cancelled <Pinentry>"),
    ConfirmEnding(
      name: "CONFIRM --one-button, Enter: OK", command: "CONFIRM --one-button", keys: [Key.enter],
      answer: "OK"),
    ConfirmEnding(
      name: "MESSAGE, Esc: OK all the same", command: "MESSAGE", keys: [Key.escape], answer: "OK"),
    ConfirmEnding(
      name: "CONFIRM with SETTIMEOUT 2: timeout", before: ["SETTIMEOUT 2"], command: "CONFIRM",
      keys: [], answer: "ERR 83886142 Timeout <Pinentry>"),
  ]
}

@Suite(
  "pinentry-secretfield on a terminal: every ending answers the client and restores the terminal",
  .enabled(if: canRun))
struct TerminalPinentryEndingTests {
  @Test(
    "GETPIN: the answer, the process's end, and the termios and modes as before",
    arguments: PinEnding.all)
  func getPinEnding(_ ending: PinEnding) throws {
    try Self.check(ending, afterARequest: false)
  }

  @Test(
    "a second GETPIN of the session, on the kept relay and buffers: the same answer, end and modes",
    arguments: PinEnding.all.filter {
      switch $0.action {
      case .signal, .clientHangUp: true
      case .key(let key): key == Key.enter
      case .wait: false
      }
    })
  func secondGetPinEnding(_ ending: PinEnding) throws {
    try Self.check(ending, afterARequest: true)
  }

  /// Runs `ending` on a GETPIN, after a first one answered (`D xy`) in the
  /// same session when `afterARequest`, and checks the answer, the
  /// process's end and the terminal after it.
  static func check(_ ending: PinEnding, afterARequest: Bool) throws {
    let driver = try TerminalPinentryDriver()
    for line in ending.before { try driver.expectOK(line) }
    if afterARequest {
      try driver.startGetPin(prompt: "First:")
      try driver.type(["x", "y"])
      try driver.waitForMasks(2, prompt: "First:")
      try driver.submit(expecting: "xy")
      let between = try driver.terminal.attributes()
      #expect(between == driver.terminal.initialAttributes, "between requests: \(between)")
    }
    try driver.startGetPin(prompt: "Passphrase:")
    for character in ending.typed { try driver.type([String(character)]) }
    try driver.waitForMasks(ending.typed.count, prompt: "Passphrase:")
    // The control: while asking, the modes differ, so the comparison after
    // can fail.
    let during = try driver.terminal.attributes()
    #expect(during.isRaw && during != driver.terminal.initialAttributes, "\(during)")
    let duringScreen = try driver.terminal.screen()
    #expect(duringScreen.bracketedPaste && duringScreen.focusReporting)
    #expect(duringScreen.shows("Enter: OK"), "the hint line: \(duringScreen)")

    switch ending.action {
    case .key(let key): try driver.type([key])
    case .signal(let number): kill(driver.process.processID, number)
    case .clientHangUp: driver.hangUp()
    case .wait: break
    }
    if let answer = ending.answer {
      for expected in answer { #expect(try driver.nextLine() == expected) }
    }
    switch ending.afterwards {
    case .sessionGoesOn:
      #expect(try driver.bye() == 0)
    case .exits:
      try #require(driver.process.waitForEnd(), "the pinentry ends by itself")
      #expect(driver.process.exitCode == 0)
    case .diesBy(let signal):
      try #require(driver.process.waitForEnd(), "the pinentry dies")
      #expect(driver.process.terminatingSignal == signal)
    }
    let after = try driver.terminal.attributes()
    #expect(after == driver.terminal.initialAttributes, "\(after)")
    let screen = try driver.terminal.screen()
    #expect(!screen.bracketedPaste && !screen.focusReporting)
    #expect(!screen.shows("Enter: OK"), "the hint line is erased: \(screen)")
  }

  @Test("CONFIRM and MESSAGE: the answer, and the termios as before", arguments: ConfirmEnding.all)
  func confirmEnding(_ ending: ConfirmEnding) throws {
    let driver = try TerminalPinentryDriver()
    for line in ending.before { try driver.expectOK(line) }
    try driver.expectOK("SETDESC Really do it?")
    driver.send(ending.command)
    try driver.terminal.waitForText("Enter:")
    let during = try driver.terminal.attributes()
    #expect(during.isRaw && during != driver.terminal.initialAttributes, "\(during)")
    try driver.type(ending.keys)
    #expect(try driver.nextLine() == ending.answer)
    if ending.answer.contains("83886278") {
      try #require(driver.process.waitForEnd(), "the pinentry ends by itself")
      #expect(driver.process.exitCode == 0)
    } else {
      #expect(try driver.bye() == 0)
    }
    let after = try driver.terminal.attributes()
    #expect(after == driver.terminal.initialAttributes, "\(after)")
    let screen = try driver.terminal.screen()
    #expect(screen.shows("Really do it?"))
    #expect(!screen.shows("Enter:"), "the key line is erased: \(screen)")
  }
}

@Suite("pinentry-secretfield on a terminal: what is not an ending", .enabled(if: canRun))
struct TerminalPinentryNonEndingTests {
  @Test("a client that closed its requests but still reads gets the answer, then the end")
  func requestsClosedAnswerStillArrives() throws {
    let driver = try TerminalPinentryDriver()
    try driver.startGetPin(prompt: "Passphrase:")
    driver.closeRequests()
    try driver.type(["a", "b"])
    try driver.waitForMasks(2, prompt: "Passphrase:")
    try driver.submit(expecting: "ab")
    try #require(driver.process.waitForEnd(), "the end of the requests ends the session")
    #expect(driver.process.exitCode == 0)
  }

  @Test("^Z rings the bell and stops nothing: a pinentry is no job of the terminal's shell")
  func suspendKeyStopsNothing() throws {
    let driver = try TerminalPinentryDriver()
    try driver.startGetPin(prompt: "Passphrase:")
    try driver.type(["a", Key.controlZ, "b"])
    try driver.waitForMasks(2, prompt: "Passphrase:")
    #expect(!driver.process.hasEnded)
    let during = try driver.terminal.attributes()
    #expect(during.isRaw, "still asking, in raw mode: \(during)")
    try driver.submit(expecting: "ab")
    #expect(try driver.bye() == 0)
  }

  @Test("no terminal named and none controlling: a general error that says what to set")
  func noTerminal() throws {
    let driver = try TerminalPinentryDriver(namesTerminal: false)
    driver.send("GETPIN")
    let answer = try driver.nextLine()
    #expect(answer.hasPrefix("ERR 83886081 General error <Pinentry> - no terminal to prompt on"))
    #expect(answer.contains("GPG_TTY"), "\(answer)")
    driver.send("CONFIRM")
    #expect(try driver.nextLine().hasPrefix("ERR 83886081 General error <Pinentry> - no terminal"))
    #expect(try driver.bye() == 0)
    let screen = try driver.terminal.screen()
    let blank = screen.lines.allSatisfy { $0.isEmpty }
    #expect(blank, "nothing drawn: \(screen)")
  }

  @Test("--help and --version print and exit 0; unknown arguments, as a client passes, are taken")
  func arguments() throws {
    for (arguments, expected) in [
      (["--help"], "Usage: pinentry-secretfield"), (["--version"], "pinentry-secretfield 0.1.0"),
    ] {
      let output = try Pipe()
      let process = try TestProcess(
        [pinentrySecretfield] + arguments, environment: .exactly([:]), standardInput: .inherit,
        standardOutput: .descriptor(output.writeEnd), standardError: .inherit)
      output.closeWriteEnd()
      #expect(String(decoding: output.receiveAll(), as: UTF8.self).hasPrefix(expected))
      #expect(process.exitCode == 0)
    }
    let driver = try TerminalPinentryDriver(
      namesTerminal: false, arguments: ["--display", ":0", "--no-global-grab", "--debug"])
    driver.send("GETINFO flavor")
    try driver.expectData("secretfield")
    #expect(try driver.bye() == 0)
  }

  @Test("--ttyname names the terminal until the client names one")
  func terminalFromArguments() throws {
    let probe = try TerminalSession(executable: "/bin/sleep", arguments: ["3600"])
    let driver = try TerminalPinentryDriver(
      namesTerminal: false, arguments: ["--ttyname", probe.terminalPath])
    try driver.expectOK("SETPROMPT Passphrase:")
    driver.send("GETPIN")
    try probe.waitForText("Passphrase:")
    try probe.type("x")
    try probe.type(Key.enter)
    try driver.expectData("x")
    #expect(try driver.bye() == 0)
  }
}

/// Keys as a terminal speaking the kitty keyboard protocol sends them.
private enum KittyKey {
  static let aWithCapsLock = "\u{1B}[97;65;65u"
  static let b = "\u{1B}[98;;98u"
  static let enter = "\u{1B}[13u"
  static let enterWithCapsLock = "\u{1B}[13;65u"
}

@Suite(
  "pinentry-secretfield knows what the user's terminal knows: caps lock, focus, recording",
  .enabled(if: canRun))
struct TerminalPinentryAwarenessTests {
  /// A driver whose terminal speaks the kitty keyboard protocol, the agent's
  /// caps-lock hint set in German.
  static func capsHintDriver() throws -> TerminalPinentryDriver {
    var options = TerminalSession.Options()
    options.supportsKeyboardProtocol = true
    let driver = try TerminalPinentryDriver(terminalOptions: options)
    try driver.expectOK("OPTION default-capshint=_Feststelltaste ist an")
    return driver
  }

  @Test("caps lock: the agent's default-capshint text shows under the field while it is on")
  func capsLockInTheAgentsWords() throws {
    let driver = try TerminalPinentryAwarenessTests.capsHintDriver()
    try driver.startKeyboardProtocolGetPin(prompt: "Passphrase:")
    try driver.type([KittyKey.aWithCapsLock])
    let on = try driver.terminal.waitForText("Feststelltaste ist an")
    #expect(on.shows("Passphrase: •"))
    try driver.type([KittyKey.b])
    try driver.terminal.waitForScreen("the warning gone") {
      $0.shows("Passphrase: ••") && !$0.shows("Feststelltaste")
    }
    try driver.type([KittyKey.enter])
    try driver.expectData("Ab")
    #expect(try driver.bye() == 0)
    let after = try driver.terminal.screen()
    #expect(after.keyboardFlags == [], "popped: \(after.keyboardLog)")
  }

  @Test("caps lock still on at the next GETPIN: its first key shows the warning again")
  func capsLockStaysKnownAcrossRequests() throws {
    let driver = try TerminalPinentryAwarenessTests.capsHintDriver()
    try driver.startKeyboardProtocolGetPin(prompt: "Passphrase:")
    try driver.type([KittyKey.aWithCapsLock])
    try driver.terminal.waitForText("Feststelltaste ist an")
    try driver.type([KittyKey.enterWithCapsLock])
    try driver.expectData("A")
    try driver.startKeyboardProtocolGetPin(prompt: "Again:")
    try driver.type([KittyKey.aWithCapsLock])
    let again = try driver.terminal.waitForScreen("the warning under the second field") {
      $0.shows("Again: •")
        && $0.lines.drop(while: { !$0.hasPrefix("Again:") })
          .contains { $0.contains("Feststelltaste ist an") }
    }
    #expect(again.shows("Again: •"))
    try driver.type([KittyKey.enterWithCapsLock])
    try driver.expectData("A")
    #expect(try driver.bye() == 0)
  }

  /// A pinentry asking for `Passphrase:`, "s3c" typed and revealed.
  static func revealedPassphrase() throws -> TerminalPinentryDriver {
    let driver = try TerminalPinentryDriver()
    try driver.startGetPin(prompt: "Passphrase:")
    try driver.type(["s", "3", "c", Key.tab])
    try driver.terminal.waitForText("Passphrase: s3c")
    return driver
  }

  @Test("the GETPIN after one that revealed its text starts empty and masked")
  func nextRequestStartsEmptyAndMasked() throws {
    // The control: the first request shows its text.
    let driver = try Self.revealedPassphrase()
    try driver.submit(expecting: "s3c")
    try driver.startGetPin(prompt: "Again:")
    try driver.type(["x"])
    let masked = try driver.waitForMasks(1, prompt: "Again:")
    #expect(!masked.cursorLine.contains("x"), "\(masked)")
    // Only what this request typed: the field started empty.
    try driver.submit(expecting: "x")
    #expect(try driver.bye() == 0)
  }

  @Test("focus lost while revealed masks the passphrase again")
  func focusOutMasks() throws {
    let driver = try Self.revealedPassphrase()
    try driver.type(["\u{1B}[O"])
    let masked = try driver.terminal.waitForScreen("masked after focus out") {
      $0.shows("Passphrase: •••")
    }
    #expect(!masked.shows("s3c"))
    try driver.submit(expecting: "s3c")
    #expect(try driver.bye() == 0)
  }

  @Test(
    "ASCIINEMA_REC in the terminal's session leader (not the pinentry's parent): reveal refused",
    arguments: [true, false])
  func recordedSessionRefusesReveal(recorded: Bool) throws {
    var options = TerminalSession.Options()
    options.sessionLeaderEnvironment = [recorded ? "ASCIINEMA_REC" : "NOT_A_RECORDER": "1"]
    let driver = try TerminalPinentryDriver(terminalOptions: options)
    try driver.startGetPin(prompt: "Passphrase:")
    try driver.type(["s", "3", "c", Key.tab])
    if recorded {
      let refused = try driver.terminal.waitForText(
        "asciinema is recording this terminal, so the passphrase can't be shown.")
      #expect(refused.shows("Passphrase: •••") && !refused.contains("s3c"))
    } else {
      // The control: the same terminal without the variable reveals.
      try driver.terminal.waitForText("Passphrase: s3c")
    }
    try driver.submit(expecting: "s3c")
    #expect(try driver.bye() == 0)
  }
}
