import Pinentry
import SecretFieldTerminal
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
struct ConfirmDialog: Sendable {
  /// What to show and which keys do what.
  var state: ConfirmDialogState
  /// The terminal to ask on.
  var terminalPath: String
  /// How long to wait for an answer; nil waits without limit.
  var timeout: Duration?

  /// A dialog of `state` on the terminal at `terminalPath`.
  init(state: ConfirmDialogState, terminalPath: String, timeout: Duration? = nil) {
    self.state = state
    self.terminalPath = terminalPath
    self.timeout = timeout
  }

  /// Dies by a fatal signal that arrived while the terminal was restored.
  ///
  /// A function of its own, so that no owned noncopyable value is alive at the
  /// call that never returns (the compiler warns that its deinit never runs).
  private static func dieByPendingFatalSignal(_ relay: borrowing SignalRelay) {
    for signal in relay.pendingSignals() where signal.response == .die { relay.dieBy(signal) }
  }

  /// Shows the dialog and waits for the answer.
  ///
  /// - Throws: ``SecretFieldTerminal/PromptError`` when there is no terminal
  ///   at ``terminalPath`` or it fails; the terminal is restored first. A
  ///   fatal signal does not return: the process dies by it, the terminal
  ///   restored.
  ///
  /// - Parameter resources: the session's relay, relaying while the dialog
  ///   runs and paused before it returns; nil makes a relay for the dialog.
  func run(reusing resources: PromptResources? = nil) throws(PromptError)
    -> ConfirmDialogState.Outcome
  {
    var terminal = try TerminalDevice(path: terminalPath)
    guard let resources else {
      let relay = try SignalRelay()
      return try run(terminal: &terminal, relay: relay)
    }
    return try resources.withRelay { relay throws(PromptError) in
      try run(terminal: &terminal, relay: relay)
    }
  }

  /// The dialog on `terminal`, through `relay`.
  private func run(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay
  ) throws(PromptError) -> ConfirmDialogState.Outcome {
    try terminal.enterRawMode(features: [])
    var decoder = try KeyDecoder()
    var dialog = Dialog(
      state: state,
      screen: Screen(writer: ScreenWriter(terminal: terminal), columns: terminal.columns),
      deadline: timeout.map { ContinuousClock.now + $0 })
    let outcome: ConfirmDialogState.Outcome
    do {
      try dialog.screen.drawAll(dialog.state)
      outcome = try TerminalEventLoop.run(
        &dialog, terminal: &terminal, relay: relay, decoder: &decoder)
    } catch {
      try? dialog.screen.finish(dialog.state)
      decoder.reset()
      terminal.restoreModes()
      throw error
    }
    try? dialog.screen.finish(dialog.state)
    decoder.reset()
    terminal.restoreModes()
    Self.dieByPendingFatalSignal(relay)
    return outcome
  }

  /// The dialog on the terminal event loop: keys into ``ConfirmDialogState``,
  /// the buttons or the whole dialog drawn again as it says.
  struct Dialog: TerminalEventHandler {
    var state: ConfirmDialogState
    var screen: Screen
    let deadline: ContinuousClock.Instant?

    var wakeTime: ContinuousClock.Instant? { deadline }

    var hangUpEnding: ConfirmDialogState.Outcome { .hungUp }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(PromptError) -> TerminalEventResponse<ConfirmDialogState.Outcome> {
      if let deadline, now >= deadline { return .end(.timedOut) }
      return .proceed
    }

    mutating func handle(
      _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
      decoder: inout KeyDecoder
    ) throws(PromptError) -> TerminalEventResponse<ConfirmDialogState.Outcome> {
      if signal.response == .die { try? screen.finish(state) }
      let response = try relay.respond(
        to: signal, terminal: &terminal, wipingFirst: { decoder.reset() })
      screen.columns = terminal.columns
      if response == .redraw || response == .resize { try screen.drawAll(state) }
      return .proceed
    }

    mutating func handle(
      _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
      terminal: inout TerminalDevice
    ) throws(PromptError) -> TerminalEventResponse<ConfirmDialogState.Outcome> {
      switch state.handle(event) {
      case .none: break
      case .redrawButtons: try screen.drawButtons(state)
      case .redrawAll: try screen.drawAll(state)
      case .end(let outcome): return .end(outcome)
      }
      return .proceed
    }

    mutating func redraw(terminal: inout TerminalDevice) throws(PromptError) {
      try screen.drawAll(state)
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
