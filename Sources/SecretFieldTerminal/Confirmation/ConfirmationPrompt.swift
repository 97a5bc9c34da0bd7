import SecureMemory

/// A yes-or-no question on the terminal, answered by one key: y for yes; n,
/// Esc, ^C, or ^D for no.
///
/// For the askpass's `SSH_ASKPASS_PROMPT=confirm` (ssh-agent asking whether a
/// key added with `ssh-add -c` may be used) and any caller with a question that
/// must be answered at the terminal. Enter is not an answer: it rings the bell,
/// as do other keys and pastes, so a stray Enter, or keys typed ahead for
/// something else, never says yes.
///
/// The screen: the question's lines, the last one followed by ``choices``; the
/// answer is written after it ("yes" or "no") so the scrollback shows what was
/// decided. Terminal modes and signals as in ``PasswordPrompt``: raw mode and
/// bracketed paste, restored on every way out; INT, TERM, HUP, QUIT, ALRM and
/// PIPE restore and end the process by the same signal; TSTP, TTIN, TTOU (and
/// ^Z) restore and stop, and the question is asked again once continued.
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

  /// A prompt asking `question`.
  public init(question: String) {
    self.question = question
  }

  /// Asks on ``terminalPath`` until the user answers, the timeout runs out, or
  /// the terminal goes away.
  ///
  /// - Throws: ``PromptError``, as ``PasswordPrompt/run(annotatingEdits:afterFirstDraw:withdrawal:reusing:)``:
  ///   `noTerminal` or `notATerminal` when there is no terminal to ask on,
  ///   others when the terminal fails meanwhile. The terminal is restored
  ///   before it throws. A fatal signal does not return: the process dies by
  ///   it.
  public func run() throws(PromptError) -> ConfirmationAnswer {
    var terminal = try TerminalDevice(path: terminalPath)
    let relay = try SignalRelay()
    try PasswordPrompt.enterRawMode(&terminal, features: [.bracketedPaste], relay: relay)
    var decoder = try KeyDecoder()
    let answer: ConfirmationAnswer
    do {
      answer = try ask(terminal: &terminal, relay: relay, decoder: &decoder)
    } catch {
      decoder.reset()
      terminal.restoreModes()
      throw error
    }
    decoder.reset()
    terminal.restoreModes()
    PasswordPrompt.dieOfLateSignal(relay)
    return answer
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
  static func answer(to event: KeyEvent, text: UnsafeRawBufferPointer) -> ConfirmationAnswer? {
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
        case UInt8(ascii: "n"): return .no
        default: continue
        }
      }
      return nil
    case .escape: return .cancelled(.escape)
    case .cancel: return .cancelled(.interrupt)
    case .endOfInput: return .cancelled(.endOfInput)
    default: return nil
    }
  }

  /// Draws the question and runs ``Asking`` on the terminal event loop.
  private func ask(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder
  ) throws(PromptError) -> ConfirmationAnswer {
    var asking = Asking(
      screenText: screenText, yesWord: yesWord, noWord: noWord,
      deadline: timeout.map { ContinuousClock.now + $0 })
    try terminal.write(asking.screenText)
    return try TerminalEventLoop.run(&asking, terminal: &terminal, relay: relay, decoder: &decoder)
  }
}

extension ConfirmationPrompt {
  /// The question on the terminal event loop: one key answers; stops, `bg`
  /// and `fg` ask again.
  struct Asking: TerminalEventHandler {
    let screenText: String
    let yesWord: String
    let noWord: String
    let deadline: ContinuousClock.Instant?
    var isWaitingForForeground = false
    var hasStoppedJobForForeground = false
    var askedAgainAfterOwnStop = false

    var wakeTime: ContinuousClock.Instant? {
      let foregroundCheck = isWaitingForForeground ? ContinuousClock.now + .milliseconds(250) : nil
      return TerminalEventLoop.earliest(deadline, foregroundCheck)
    }

    var hangUpEnding: ConfirmationAnswer { .hungUp }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(PromptError) -> TerminalEventResponse<ConfirmationAnswer> {
      if let deadline, now >= deadline {
        try terminal.write(ControlSequence.newline)
        return .end(.timedOut)
      }
      if isWaitingForForeground, terminal.isForeground, try terminal.resumeRawMode() {
        isWaitingForForeground = false
        hasStoppedJobForForeground = false
        try terminal.write(screenText)
      }
      return .proceed
    }

    mutating func handle(
      _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
      decoder: inout KeyDecoder
    ) throws(PromptError) -> TerminalEventResponse<ConfirmationAnswer> {
      if signal.response == .die || signal.response == .stop {
        // The shell's prompt, or the next program's output, on a fresh line.
        try? terminal.write(ControlSequence.newline)
      }
      let outcome = try relay.respond(
        to: signal, terminal: &terminal, wipingFirst: { decoder.reset() })
      if outcome == .waitForForeground && !hasStoppedJobForForeground {
        // Continued with `bg`: stop the job so that `fg` continues it, as
        // the password prompt does.
        Platform.signalProcessGroup(TerminalSignal.backgroundWrite.number)
        hasStoppedJobForForeground = true
      }
      isWaitingForForeground = outcome == .waitForForeground
      switch (signal.response, outcome) {
      case (.stop, .redraw):
        try terminal.write(screenText)
        askedAgainAfterOwnStop = true
      case (.resume, .redraw):
        // After a stop it could not see (SIGSTOP), ask again below.
        if !askedAgainAfterOwnStop {
          try terminal.write(ControlSequence.newline + screenText)
        }
        askedAgainAfterOwnStop = false
      default:
        break
      }
      return .proceed
    }

    mutating func handle(
      _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
      terminal: inout TerminalDevice
    ) throws(PromptError) -> TerminalEventResponse<ConfirmationAnswer> {
      if event == .suspend {
        // The relay catches it at the next wait and stops properly.
        Platform.signalProcessGroup(TerminalSignal.terminalStop.number)
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
      let word = answer == .yes ? yesWord : noWord
      try terminal.write(DisplayText.sanitized(word) + ControlSequence.newline)
      return .end(answer)
    }

    /// Drawing happens as each event is handled.
    mutating func redraw(terminal: inout TerminalDevice) throws(PromptError) {}
  }
}
