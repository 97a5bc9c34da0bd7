public import Pinentry
public import SecretFieldTerminal
import SecureMemory

/// A confirmation or message (``ConfirmDialogState``) run on a terminal: the
/// texts, a line of buttons and a dim line of keys, answered with the keyboard.
///
/// Raw mode while it runs, restored on every way out (an answer, a timeout, a
/// hang-up, a thrown error, a fatal signal), through the same
/// ``SecretFieldTerminal/TerminalDevice`` and
/// ``SecretFieldTerminal/SignalRelay`` as the password prompt. Nothing it shows
/// is secret. When it ends, the button line is drawn once more with the button
/// pressed in brackets, the key line erased, and the cursor left on the next
/// line.
public struct ConfirmDialog: Sendable {
  /// What to show and which keys do what.
  public var state: ConfirmDialogState
  /// The terminal to ask on.
  public var terminalPath: String
  /// How long to wait for an answer; nil waits without limit.
  public var timeout: Duration?

  /// A dialog of `state` on the terminal at `terminalPath`.
  public init(state: ConfirmDialogState, terminalPath: String, timeout: Duration? = nil) {
    self.state = state
    self.terminalPath = terminalPath
    self.timeout = timeout
  }

  /// `EIO`: what `read(2)` reports once a terminal has hung up.
  static let inputOutputError: Int32 = 5

  /// Shows the dialog and waits for the answer.
  ///
  /// - Throws: ``SecretFieldTerminal/PromptError`` when there is no terminal
  ///   at ``terminalPath`` or it fails; the terminal is restored first. A
  ///   fatal signal does not return: the process dies by it, the terminal
  ///   restored.
  public func run() throws(PromptError) -> ConfirmDialogState.Outcome {
    var terminal = try TerminalDevice(path: terminalPath)
    let relay = try SignalRelay()
    try terminal.enterRawMode(features: [])
    var decoder = try KeyDecoder()
    var state = self.state
    var screen = Screen(writer: ScreenWriter(terminal: terminal), columns: terminal.columns)
    let deadline = timeout.map { ContinuousClock.now + $0 }
    let outcome: ConfirmDialogState.Outcome
    do {
      outcome = try Self.loop(
        state: &state, screen: &screen, terminal: &terminal, relay: relay, decoder: &decoder,
        deadline: deadline)
    } catch {
      try? screen.finish(state)
      decoder.reset()
      terminal.restoreModes()
      throw error
    }
    try? screen.finish(state)
    decoder.reset()
    terminal.restoreModes()
    for signal in relay.pendingSignals() where signal.response == .die { relay.dieBy(signal) }
    return outcome
  }

  static func loop(
    state: inout ConfirmDialogState, screen: inout Screen, terminal: inout TerminalDevice,
    relay: borrowing SignalRelay, decoder: inout KeyDecoder, deadline: ContinuousClock.Instant?
  ) throws(PromptError) -> ConfirmDialogState.Outcome {
    try screen.drawAll(state)
    var decoderDeadline: ContinuousClock.Instant?
    while true {
      if let deadline, ContinuousClock.now >= deadline { return .timedOut }
      let wake = [decoderDeadline, deadline].compactMap { $0 }.min()
      let readiness = try terminal.waitForInput(or: relay, until: wake)
      if readiness.contains(.signal) {
        for signal in relay.pendingSignals() {
          if signal.response == .die { try? screen.finish(state) }
          let response = try relay.respond(
            to: signal, terminal: &terminal, wipingFirst: { decoder.reset() })
          screen.columns = terminal.columns
          if response == .redraw || response == .resize { try screen.drawAll(state) }
        }
      }
      if readiness.contains(.input) {
        do {
          if try terminal.read(into: &decoder) == .endOfFile { return .hungUp }
        } catch {
          guard error.code == .readFailed, error.errno == inputOutputError else { throw error }
          return .hungUp
        }
      }
      decoderDeadline = nil
      decoding: while true {
        switch try decoder.next(at: .now) {
        case .needsInput:
          break decoding
        case .needsInputBefore(let instant):
          decoderDeadline = instant
          break decoding
        case .event(let event):
          switch state.handle(event) {
          case .none: break
          case .redrawButtons: try screen.drawButtons(state)
          case .redrawAll: try screen.drawAll(state)
          case .end(let outcome): return outcome
          }
        }
      }
    }
  }

  /// What the dialog has drawn, and where the cursor is: on the button line,
  /// after the key line was drawn below it.
  struct Screen {
    var writer: ScreenWriter
    var columns: Int
    var isDrawn = false

    /// The whole dialog, from a fresh line: texts, buttons, keys; the cursor
    /// back on the button line.
    mutating func drawAll(_ state: ConfirmDialogState) throws(PromptError) {
      if isDrawn { writer.append(ControlSequence.newline) }
      for line in state.textLines {
        writer.append(
          ControlSequence.carriageReturn + line + ControlSequence.eraseToEndOfLine
            + ControlSequence.newline)
      }
      writer.append(
        ControlSequence.carriageReturn + state.buttonLine(columns: columns)
          + ControlSequence.eraseToEndOfLine + ControlSequence.newline + ControlSequence.dim
          + state.hintLine(columns: columns) + ControlSequence.resetAttributes
          + ControlSequence.eraseToEndOfLine + ControlSequence.cursorUp(1)
          + ControlSequence.carriageReturn)
      isDrawn = true
      try writer.flush()
    }

    /// The button line again, after the selection moved.
    mutating func drawButtons(_ state: ConfirmDialogState) throws(PromptError) {
      writer.append(
        ControlSequence.carriageReturn + state.buttonLine(columns: columns)
          + ControlSequence.eraseToEndOfLine + ControlSequence.carriageReturn)
      try writer.flush()
    }

    /// The button line without highlight (the one pressed in brackets), the
    /// key line erased, the cursor at the start of the next line.
    mutating func finish(_ state: ConfirmDialogState) throws(PromptError) {
      guard isDrawn else { return }
      isDrawn = false
      writer.append(
        ControlSequence.carriageReturn + state.buttonLine(columns: columns, isActive: false)
          + ControlSequence.eraseToEndOfLine + ControlSequence.newline
          + ControlSequence.eraseToEndOfScreen)
      try writer.flush()
    }
  }
}

extension TerminalDevice {
  /// The width to draw for: the terminal's, or 80 when it reports none.
  fileprivate var columns: Int { size?.columns ?? 80 }
}
