public import SecretField
import SecureMemory

/// A question on the terminal, answered by one key, or by a row of buttons.
///
/// Without ``buttons``, a yes-or-no question answered by one key: y for yes;
/// n, Esc, ^C, or ^D for no. For the askpass's `SSH_ASKPASS_PROMPT=confirm`
/// (ssh-agent asking whether a key added with `ssh-add -c` may be used) and any
/// caller with a question that must be answered at the terminal. Enter is not
/// an answer: it rings the bell, as do other keys and pastes, so a stray Enter,
/// or keys typed ahead for something else, never says yes. The screen: the
/// question's lines, the last one followed by ``choices``; the answer is
/// written after it ("yes" or "no") so the scrollback shows what was decided.
///
/// With ``buttons`` (a pinentry's `CONFIRM` and `MESSAGE`): the question's
/// lines, a row of buttons and a dim line naming the keys. Tab and Right
/// select the next button, Left the one before; Enter presses the selected one
/// (the first at first); Esc and ^D cancel, ^C cancels as an interrupt. When it
/// ends, the row is drawn once more with the pressed button in brackets.
///
/// Terminal modes and signals as in ``PasswordPrompt``: raw mode, restored on
/// every way out; INT, TERM, HUP, QUIT, ALRM and PIPE restore and end the
/// process by the same signal; TSTP, TTIN, TTOU (and ^Z) restore and stop, and
/// the question is asked again once continued.
public struct ConfirmationPrompt: Sendable {
  /// The question: one line, or several, the last one asking. Control
  /// characters show as `?`.
  public var question: String
  /// Shown after the question: "[y/n]".
  public var choices = "[y/n]"
  /// Written after the question for yes: "yes".
  public var yesWord = "yes"
  /// Written after the question for no, and for a cancel: "no".
  public var noWord = "no"
  /// How long the question may wait for an answer; nil waits without limit.
  public var timeout: Duration?
  /// The terminal to ask on: the controlling terminal by default.
  public var terminalPath = TerminalDevice.controllingTerminalPath
  /// The buttons to choose from, in order; empty (the default) for the
  /// one-key yes-or-no question.
  public var buttons: [ConfirmationButton] = []
  /// The terminal's character set, for the key line of ``buttons``; nil reads
  /// it from the environment.
  public var locale: TerminalLocale?

  /// A prompt asking `question`.
  public init(question: String) {
    self.question = question
  }

  /// Asks on ``terminalPath`` until the user answers, the timeout runs out, or
  /// the terminal goes away.
  ///
  /// - Parameter resources: the relay kept by a program that asks more than
  ///   once, relaying while the question runs and paused before it returns;
  ///   nil makes a relay for this question.
  /// - Throws: ``TerminalError``, as ``PasswordPrompt/run(annotatingEdits:afterFirstDraw:withdrawal:reusing:beforeRestoring:)``:
  ///   `noTerminal` or `notATerminal` when there is no terminal to ask on,
  ///   others when the terminal fails meanwhile. The terminal is restored
  ///   before it throws. A fatal signal does not return: the process dies by
  ///   it.
  public func run(reusing resources: PromptResources? = nil) throws(TerminalError)
    -> EntryOutcome<Void>
  {
    let setup = TerminalSession.Setup(
      terminalPath: terminalPath, features: buttons.isEmpty ? [.bracketedPaste] : [],
      resources: resources)
    return try TerminalSession.run(setup) { terminal, relay, decoder, _ throws(TerminalError) in
      let deadline = timeout.map { ContinuousClock.now + $0 }
      if buttons.isEmpty {
        var asking = KeyAnswer(
          screenText: screenText, yesWord: yesWord, noWord: noWord, deadline: deadline)
        try terminal.write(asking.screenText)
        return try TerminalEventLoop.run(
          &asking, terminal: &terminal, relay: relay, decoder: &decoder)
      }
      var dialog = ButtonDialog(
        row: ConfirmationButtonRow(
          text: question, buttons: buttons, locale: locale ?? .current),
        screen: ButtonDialog.Screen(
          writer: ScreenWriter(terminal: terminal), columns: terminal.columns),
        deadline: deadline)
      do throws(TerminalError) {
        try dialog.screen.drawAll(dialog.row)
        let answer = try TerminalEventLoop.run(
          &dialog, terminal: &terminal, relay: relay, decoder: &decoder)
        try? dialog.screen.finish(dialog.row)
        return answer
      } catch {
        try? dialog.screen.finish(dialog.row)
        throw error
      }
    }
  }

  /// The question as drawn: its lines, the last with the choices and the
  /// cursor after them.
  var screenText: String {
    var lines = question.split(separator: "\n", omittingEmptySubsequences: false).map {
      DisplayText.sanitized(String($0))
    }
    var last = lines.popLast() ?? ""
    while let end = last.last, end.isWhitespace { last.removeLast() }
    lines.append((last.isEmpty ? "" : last + " ") + DisplayText.sanitized(choices) + " ")
    return lines.joined(separator: ControlSequence.newline)
  }

  /// What a key means: an answer, or nil (with the bell, for a key that is
  /// none). `text` is the text a ``KeyEvent/text`` event brought.
  ///
  /// - Complexity: O(text), reading it in place.
  static func answer(to event: KeyEvent, text: UnsafeRawBufferPointer) -> EntryOutcome<Void>? {
    switch event {
    case .text:
      // Each character is a key press, as if typed one by one (fast typing
      // can bring several in one read): the first y or n answers. Read byte
      // by byte, never made a String: someone who takes this for a password
      // prompt may type a password here. (No byte of a multi-byte UTF-8
      // character is ASCII, so the scan cannot match inside one.)
      for byte in text {
        switch byte | 0x20 {
        case UInt8(ascii: "y"): return .yes
        case UInt8(ascii: "n"): return .ended(.declined)
        default: continue
        }
      }
      return nil
    case .escape: return .ended(.cancelled(.escape))
    case .cancel: return .ended(.cancelled(.interrupt))
    case .endOfInput: return .ended(.cancelled(.endOfInput))
    default: return nil
    }
  }

}

extension ConfirmationPrompt {
  /// The question on the terminal event loop: one key answers; stops, `bg`
  /// and `fg` ask again.
  struct KeyAnswer: TerminalEventHandler {
    let screenText: String
    let yesWord: String
    let noWord: String
    let deadline: ContinuousClock.Instant?
    /// Stops, continues, the background and `fg`.
    var jobs = JobControl()

    var wakeTime: ContinuousClock.Instant? {
      TerminalEventLoop.earliest(deadline, jobs.foregroundCheck)
    }

    var hangUpEnding: EntryOutcome<Void> { .ended(.hungUp) }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      if let deadline, now >= deadline {
        try terminal.write(ControlSequence.newline)
        return .end(.ended(.timedOut))
      }
      if try jobs.returnToForeground(terminal: &terminal) {
        try terminal.write(screenText)
      }
      return .proceed
    }

    mutating func handle(
      _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
      decoder: inout KeyDecoder
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      if signal.response == .die || signal.response == .stop {
        // The shell's prompt, or the next program's output, on a fresh line.
        try? terminal.write(ControlSequence.newline)
      }
      switch try jobs.respond(
        to: signal, terminal: &terminal, relay: relay, wipingFirst: { decoder.reset() })
      {
      case .resumedAfterOwnStop:
        try terminal.write(screenText)
      case .continued(afterOwnStop: false):
        // After a stop it could not see (SIGSTOP), ask again below.
        try terminal.write(ControlSequence.newline + screenText)
      case .continued(afterOwnStop: true), .relayout, .waitingForForeground:
        break
      }
      return .proceed
    }

    mutating func handle(
      _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
      terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      if event == .suspend {
        JobControl.suspend()
        return .proceed
      }
      if event == .redraw {
        try terminal.write(ControlSequence.newline + screenText)
        return .proceed
      }
      if case .focusIn = event { return .proceed }
      if case .focusOut = event { return .proceed }
      if case .capsLock = event { return .proceed }
      guard let answer = ConfirmationPrompt.answer(to: event, text: payload) else {
        try terminal.write(ControlSequence.bell)
        return .proceed
      }
      let word = answer.isSubmitted ? yesWord : noWord
      try terminal.write(DisplayText.sanitized(word) + ControlSequence.newline)
      return .end(answer)
    }

    /// Drawing happens as each event is handled.
    mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {}
  }

  /// The buttons on the terminal event loop: keys into the
  /// ``ConfirmationButtonRow``, the buttons or the whole dialog drawn again as
  /// it says.
  struct ButtonDialog: TerminalEventHandler {
    var row: ConfirmationButtonRow
    var screen: Screen
    let deadline: ContinuousClock.Instant?

    var wakeTime: ContinuousClock.Instant? { deadline }

    var hangUpEnding: EntryOutcome<Void> { .ended(.hungUp) }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      if let deadline, now >= deadline { return .end(.ended(.timedOut)) }
      return .proceed
    }

    mutating func handle(
      _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
      decoder: inout KeyDecoder
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      if signal.response == .die { try? screen.finish(row) }
      let response = try relay.respond(
        to: signal, terminal: &terminal, wipingFirst: { decoder.reset() })
      screen.columns = terminal.columns
      if response == .redraw || response == .resize { try screen.drawAll(row) }
      return .proceed
    }

    mutating func handle(
      _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
      terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
      switch row.handle(event) {
      case .none: break
      case .redrawButtons: try screen.drawButtons(row)
      case .redrawAll: try screen.drawAll(row)
      case .end(let outcome): return .end(outcome)
      }
      return .proceed
    }

    mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {
      try screen.drawAll(row)
    }
  }

}

extension ConfirmationPrompt.ButtonDialog {
  /// What the dialog has drawn, and where the cursor is: on the button line,
  /// after the key line was drawn below it.
  struct Screen {
    var writer: ScreenWriter
    var columns: Int
    var isDrawn = false

    /// The whole dialog, from a fresh line: texts, buttons, keys; the cursor
    /// back on the button line.
    mutating func drawAll(_ row: ConfirmationButtonRow) throws(TerminalError) {
      if isDrawn { writer.append(ControlSequence.newline) }
      for line in row.textLines {
        writer.append(
          ControlSequence.carriageReturn + line + ControlSequence.eraseToEndOfLine
            + ControlSequence.newline)
      }
      writer.append(
        ControlSequence.carriageReturn + row.buttonLine(columns: columns)
          + ControlSequence.eraseToEndOfLine + ControlSequence.newline + ControlSequence.dim
          + row.hintLine(columns: columns) + ControlSequence.resetAttributes
          + ControlSequence.eraseToEndOfLine + ControlSequence.cursorUp(1)
          + ControlSequence.carriageReturn)
      isDrawn = true
      try writer.flush()
    }

    /// The button line again, after the selection moved.
    mutating func drawButtons(_ row: ConfirmationButtonRow) throws(TerminalError) {
      writer.append(
        ControlSequence.carriageReturn + row.buttonLine(columns: columns)
          + ControlSequence.eraseToEndOfLine + ControlSequence.carriageReturn)
      try writer.flush()
    }

    /// The button line without highlight (the one pressed in brackets), the
    /// key line erased, the cursor at the start of the next line.
    mutating func finish(_ row: ConfirmationButtonRow) throws(TerminalError) {
      guard isDrawn else { return }
      isDrawn = false
      writer.append(
        ControlSequence.carriageReturn + row.buttonLine(columns: columns, isActive: false)
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
