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
}
