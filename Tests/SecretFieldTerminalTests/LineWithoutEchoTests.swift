import Glibc
import PTYSupport
import TestSupport
import Testing

@Suite("PromptConfiguration.lineWithoutEcho: a line read with nothing shown, the terminal restored")
struct LineWithoutEchoTests {
  private func start() throws -> TerminalSession {
    var options = TerminalSession.Options()
    options.standardOutput = .captured
    return try startProbe(["--line-without-echo"], options: options, waitingFor: "PIN:")
  }

  @Test("what is typed shows nothing, not even masks; Enter gives the line")
  func silent() throws {
    let session = try start()
    try session.type("1234")
    // The control: the cursor does not move, and no mask or digit is drawn.
    let screen = try session.screen()
    #expect(!screen.shows("1234") && !screen.shows("•"), "\(screen)")
    #expect(screen.cursorLine.hasPrefix("PIN:"))
    #expect(try session.attributes().isRaw)
    try session.type("\r")
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.capturedOutput(stream: 1) == Array("1234".utf8))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("Esc and a fatal signal leave the terminal as it was", arguments: [true, false])
  func restored(byEscape: Bool) throws {
    let session = try start()
    try session.type("12")
    #expect(try session.attributes() != session.initialAttributes, "control: raw while asked")
    if byEscape { try session.type("\u{1B}") } else { try session.send(signal: SIGTERM) }
    #expect(try session.waitForExit() == (byEscape ? .exited(1) : .signaled(SIGTERM)))
    #expect(try session.attributes() == session.initialAttributes)
  }
}
