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
}
