import TestSupport
import Testing

/// The title the askpass window is found and focused by.
let askpassTitle = "secretfield-askpass"

/// One thing a test does at a window's keyboard.
enum Keystroke: Sendable {
  /// Text typed, character by character.
  case text(String)
  /// Keys pressed in order, as xdotool names them (`Left`, `ctrl+a`).
  case keys([String])
}

extension TestDisplay {
  /// Starts `secretfield-window askpass ARGUMENTS` and waits until it has
  /// the focus.
  func openAskpass(
    _ arguments: [String] = [], environment: [String: String?] = [:]
  ) throws -> TestProcess {
    try openWindow(
      ["askpass"] + arguments, display: self, environment: environment, title: askpassTitle)
  }

  /// Starts `secretfield-askpass PROMPT`, the terminal's askpass, with no
  /// terminal, and waits until the window it becomes has the focus.
  func openTerminalAskpass(
    _ prompt: String, environment: [String: String?] = [:]
  ) throws -> TestProcess {
    try openWindow(
      [prompt], program: WindowTestEnvironment.askpassProgram, display: self,
      environment: environment, title: askpassTitle)
  }

  /// Types `strokes` in order.
  func press(_ strokes: [Keystroke]) throws {
    for stroke in strokes {
      switch stroke {
      case .text(let text): try type(text)
      case .keys(let keys): try key(keys)
      }
    }
  }

  /// Opens the askpass, types `strokes`, presses Enter and expects the
  /// answer `output` and exit 0.
  func answerAskpass(
    _ arguments: [String] = [], typing strokes: [Keystroke], expecting output: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let window = try openAskpass(arguments)
    try press(strokes)
    try submit(window, expecting: output, sourceLocation: sourceLocation)
  }
}

extension TestProcess {
  /// Waits for the exit and expects `status`, nothing on standard output,
  /// and standard error saying each of `reasons`.
  @discardableResult
  func finish(
    expectingStatus status: Int32, saying reasons: String...,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProgramRun {
    try finish(expectingStatus: status, sayingAll: reasons, sourceLocation: sourceLocation)
  }

  /// ``finish(expectingStatus:saying:sourceLocation:)`` with the reasons in
  /// an array.
  @discardableResult
  func finish(
    expectingStatus status: Int32, sayingAll reasons: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProgramRun {
    let run = try finish(expectingStatus: status, output: "", sourceLocation: sourceLocation)
    for reason in reasons {
      #expect(run.error.contains(reason), "\(run.error)", sourceLocation: sourceLocation)
    }
    return run
  }
}
