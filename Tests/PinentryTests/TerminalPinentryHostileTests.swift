import PinentryTerminal
import Glibc
import PTYSupport
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
    driver.send("GETINFO pid")
    #expect(try driver.nextLine() == "D \(driver.process.processID)")
    #expect(try driver.nextLine() == "OK")
    #expect(try driver.bye() == 0)
  }

  @Test(
    "a fault or a catchable fatal signal while asking restores the terminal and ends the pinentry",
    arguments: [SIGSEGV, SIGABRT, SIGUSR1, SIGXCPU])
  func fatalSignal(_ number: Int32) throws {
    let driver = try TerminalPinentryDriver()
    try driver.expectOK("SETPROMPT Passphrase:")
    driver.send("GETPIN")
    try driver.waitForMasks(0, prompt: "Passphrase:")
    let during = try driver.terminal.attributes()
    #expect(during.isRaw && during != driver.terminal.initialAttributes, "\(during)")
    kill(driver.process.processID, number)
    try #require(driver.process.waitForEnd())
    #expect(driver.process.terminatingSignal == number)
    #expect(try driver.terminal.attributes() == driver.terminal.initialAttributes)
    let screen = try driver.terminal.screen()
    #expect(!screen.bracketedPaste && !screen.focusReporting, "\(screen)")
  }
}
