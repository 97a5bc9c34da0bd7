import PinentryTerminal
import Glibc
import PTYSupport
import TestSupport
import Testing

@Suite(
  "pinentry-secretfield answers a hostile client in valid lines",
  .enabled(if: access(pinentrySecretfield, X_OK) == 0 && access("/usr/bin/setsid", X_OK) == 0))
struct TerminalPinentryHostileTests {
  @Test("a client's line feed in --ttyname comes back escaped, and the session goes on")
  func ttynameWithLineFeed() throws {
    let driver = try TerminalPinentryDriver(
      namesTerminal: false, arguments: ["--ttyname", "/x\nOK"])
    driver.send("GETPIN")
    let answer = try driver.nextLine()
    #expect(answer.hasPrefix("ERR 83886081 General error <Pinentry> - no terminal to prompt on"))
    #expect(answer.contains("/x%0AOK"), "\(answer)")
    try Self.expectGoesOn(driver)
  }

  @Test(
    "a fault or a catchable fatal signal while asking restores the terminal and ends the pinentry",
    arguments: [SIGSEGV, SIGABRT, SIGUSR1, SIGXCPU])
  func fatalSignal(_ number: Int32) throws {
    let driver = try TerminalPinentryDriver()
    try driver.startGetPin(prompt: "Passphrase:")
    let during = try driver.terminal.attributes()
    #expect(during.isRaw && during != driver.terminal.initialAttributes, "\(during)")
    kill(driver.process.processID, number)
    try #require(driver.process.waitForEnd())
    #expect(driver.process.terminatingSignal == number)
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
    let screen = try driver.terminal.screen()
    #expect(!screen.bracketedPaste && !screen.focusReporting, "\(screen)")
  }

  /// The session goes on after what the test did: `GETINFO pid` is answered
  /// and `BYE` ends it with status 0.
  static func expectGoesOn(_ driver: TerminalPinentryDriver) throws {
    driver.send("GETINFO pid")
    #expect(try driver.nextLine() == "D \(driver.process.processID)")
    #expect(try driver.nextLine() == "OK")
    #expect(try driver.bye() == 0)
  }

  /// A pinentry asking with a quality bar, one key typed, and the
  /// `INQUIRE QUALITY` it sent for it read: the client now owes the answer.
  static func inquiring(before: [String] = []) throws -> TerminalPinentryDriver {
    let driver = try TerminalPinentryDriver()
    for line in before { try driver.expectOK(line) }
    try driver.expectOK("SETPROMPT Passphrase:")
    try driver.expectOK("SETQUALITYBAR")
    driver.send("GETPIN")
    try driver.waitForMasks(0, prompt: "Passphrase:")
    try driver.type(["a"])
    #expect(try driver.nextLine() == "INQUIRE QUALITY a")
    return driver
  }

  @Test(
    "a signal while INQUIRE QUALITY waits for the client restores the terminal and ends the pinentry",
    arguments: [SIGTERM, SIGINT, SIGHUP])
  func signalDuringInquiry(_ number: Int32) throws {
    let driver = try Self.inquiring()
    let during = try driver.terminal.attributes()
    #expect(during.isRaw, "\(during)")
    kill(driver.process.processID, number)
    try #require(driver.process.waitForEnd())
    #expect(driver.process.terminatingSignal == number)
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
  }

  @Test(
    "keys are served while INQUIRE QUALITY waits: Enter answers, and the late answer is no command"
  )
  func keysDuringInquiry() throws {
    let driver = try Self.inquiring()
    try driver.submit(expecting: "a")
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
    driver.send("D 50")
    driver.send("END")
    try Self.expectGoesOn(driver)
  }

  @Test(
    "a client that answers INQUIRE QUALITY with another command fails the inquiry: the bar shows unknown, the session goes on"
  )
  func commandForInquiryAnswer() throws {
    let driver = try Self.inquiring()
    driver.send("GETINFO pid")
    let unknown = try driver.terminal.waitForScreen("the quality unknown") {
      $0.contains("Quality: [") && $0.contains("]    ?")
    }
    #expect(!unknown.contains("%"), "\(unknown)")
    try driver.submit(expecting: "a")
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
    try Self.expectGoesOn(driver)
  }

  @Test("SETTIMEOUT runs out while INQUIRE QUALITY waits: timeout, the terminal restored")
  func timeoutDuringInquiry() throws {
    let driver = try Self.inquiring(before: ["SETTIMEOUT 1"])
    #expect(try driver.nextLine() == "ERR 83886142 Timeout <Pinentry>")
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
    driver.send("D 50")
    driver.send("END")
    try Self.expectGoesOn(driver)
  }

  @Test("the control: a client that answers the inquiry gets its score drawn")
  func answeredInquiry() throws {
    let driver = try Self.inquiring()
    driver.send("D 42")
    driver.send("END")
    try driver.terminal.waitForScreen("the score") { $0.contains("42%") }
    try driver.submit(expecting: "a")
    #expect(try driver.bye() == 0)
  }
}
