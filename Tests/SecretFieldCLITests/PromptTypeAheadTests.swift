import Glibc
import PTYSupport
import Testing

/// A terminal the prompt runs on: what it answers to the prompt's queries.
struct AnsweringTerminal: CustomTestStringConvertible, Sendable {
  let name: String
  let answersDeviceAttributes: Bool
  let supportsKeyboardProtocol: Bool
  var testDescription: String { name }

  static let all = [
    AnsweringTerminal(
      name: "a plain terminal", answersDeviceAttributes: true, supportsKeyboardProtocol: false),
    AnsweringTerminal(
      name: "a kitty protocol terminal", answersDeviceAttributes: true,
      supportsKeyboardProtocol: true),
    AnsweringTerminal(
      name: "a terminal that answers nothing", answersDeviceAttributes: false,
      supportsKeyboardProtocol: false),
  ]
}

@Suite("secretfield prompt: keys typed right after Enter change nothing of the ending")
struct PromptTypeAheadTests {
  /// What may follow Enter in the same write: more text, another Enter, ^C,
  /// Esc, a sequence cut short, a paste's start, a long run of keys.
  static let trailers = [
    "xyz", "\r", "\u{03}", Key.escape, Key.csi + "1;", Key.csi + "200~pasted", "more\rand more",
    String(repeating: "x", count: 3000),
  ]

  @Test(
    "the last frame, masked, and every mode reset reach the terminal, run after run",
    arguments: AnsweringTerminal.all)
  func lastFrameAndModeResets(_ terminal: AnsweringTerminal) throws {
    var options = TerminalSession.Options()
    options.answersDeviceAttributes = terminal.answersDeviceAttributes
    options.supportsKeyboardProtocol = terminal.supportsKeyboardProtocol
    for run in 0..<24 {
      let trailer = Self.trailers[run % Self.trailers.count]
      let session = try startPrompt(options: options)
      try session.type("abc" + Key.enter + trailer)
      #expect(try session.waitForExit() == .exited(0), "run \(run)")
      #expect(try session.standardOutput() == "abc\n", "run \(run)")
      let screen = try session.screen()
      #expect(screen.lines.contains("Password: •••"), "run \(run): \(screen)")
      #expect(!screen.bracketedPaste && !screen.focusReporting, "run \(run): \(screen)")
      #expect(screen.keyboardFlags.isEmpty, "run \(run): \(screen)")
      #expect(try session.attributes() == session.initialAttributes, "run \(run)")
    }
  }

  @Test(
    "keys that keep coming after Enter, ^C among them: the last frame, then every reset, 32 runs")
  func keysKeepComingAfterEnter() throws {
    let resets = "\u{1B}[?1004l\u{1B}[?2004l"
    for run in 0..<32 {
      // Text, or ^C: once the modes are restored, ^C is the terminal's
      // interrupt, which flushes what the terminal has not taken in yet.
      let key = run % 2 == 0 ? "\u{03}" : "x"
      let session = try startPrompt()
      try session.typeMasked("abc")
      try session.type(Key.enter)
      let writes = try session.typeUntilExit(Array(key.utf8))
      // A ^C that came once the prompt had ended, and before the tool did,
      // interrupts the tool as it would any program, before or after it
      // printed the password.
      let status = try session.waitForExit()
      let output = try session.standardOutput()
      let interrupted = key == "\u{03}" && status == .signaled(SIGINT)
      #expect(
        (status == .exited(0) || interrupted) && (output == "abc\n" || interrupted && output == ""),
        "run \(run): \(status), \(output.debugDescription)")
      let screen = try session.screen()
      // After the resets only the query that asks the terminal to say it took
      // them, and the terminal's own echo of keys typed once the modes were
      // back.
      let echo = key == "x" ? "x" : "^C"
      var transcript = Substring(screen.transcript)
      while transcript.hasSuffix(echo) { transcript = transcript.dropLast(echo.count) }
      if transcript.hasSuffix(Key.csi + "c") { transcript = transcript.dropLast(3) }
      let tail = transcript.suffix(120).debugDescription
      #expect(transcript.hasSuffix(resets), "run \(run), \(writes) writes: \(tail)")
      let lastFrame = transcript.ranges(of: "\rPassword: ").last.map {
        transcript[$0.lowerBound...]
      }
      #expect(
        lastFrame?.contains("•••") == true && lastFrame?.contains("\r\r\n\u{1B}[J") == true,
        "run \(run): the line masked and the hints erased before the resets: \(tail)")
      #expect(!screen.bracketedPaste && !screen.focusReporting, "run \(run)")
      #expect(try session.attributes() == session.initialAttributes, "run \(run)")
    }
  }
}
