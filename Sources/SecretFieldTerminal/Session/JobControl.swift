import SystemCalls

/// What every terminal exchange (the prompt, the form, the yes-or-no question)
/// does about job control, written once: stopped by its own ^Z or by
/// `SIGTSTP`, continued in the foreground or in the background, brought back
/// by `fg`, resized.
///
/// The exchange masks what it shows before a stop and redraws after; this
/// type relays the signal (``SignalRelay/respond(to:terminal:wipingFirst:)``),
/// stops a job continued in the background so that `fg` can continue it, and
/// says which redraw the exchange owes.
struct JobControl {
  /// What the exchange should draw after a signal.
  enum Resumption: Equatable {
    /// Stopped by its own stop (it had finished its line first), now back in
    /// raw mode: draw again on a fresh line.
    case resumedAfterOwnStop
    /// Continued (`SIGCONT`), in the foreground: after its own stop the line
    /// was drawn again already; after a stop it could not see (`SIGSTOP`),
    /// start afresh below what is on the screen.
    case continued(afterOwnStop: Bool)
    /// The terminal's size changed, or raw mode came back otherwise: lay
    /// the line out again.
    case relayout
    /// Continued in the background: draw nothing until `fg`.
    case waitingForForeground
  }

  /// Continued in the background: draw nothing until `fg` brings raw mode back.
  private(set) var isWaitingForForeground = false
  /// The job was stopped once to wait for `fg`; in an orphaned process group,
  /// where that stop is discarded, it is not tried again.
  private var hasStoppedJobForForeground = false
  /// The last stop was the exchange's own, so the `SIGCONT` after it only
  /// asks for a redraw in place.
  private var resumedFromOwnStop = false

  /// While waiting for the foreground, when to look again (a shell's `fg`
  /// gives a running job the terminal without a signal).
  var foregroundCheck: ContinuousClock.Instant? {
    isWaitingForForeground ? ContinuousClock.now + .milliseconds(250) : nil
  }

  /// Relays `signal` (a fatal one restores the terminal, calls `wipe`, and
  /// ends the process by it) and says what to draw. The exchange masks what
  /// it shows before calling this for a fatal signal or a stop.
  mutating func respond(
    to signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    wipingFirst wipe: () -> Void
  ) throws(TerminalError) -> Resumption {
    let outcome = try relay.respond(to: signal, terminal: &terminal, wipingFirst: wipe)
    if outcome == .waitForForeground && !hasStoppedJobForForeground {
      // Continued in the background (`bg`). A shell's `fg` gives a running job
      // the terminal without a SIGCONT, so stop the job now, as the terminal
      // stops a background job that touches it; `fg` then continues it. The
      // relay brings the SIGTTOU back, and the exchange stops by it.
      Platform.signalProcessGroup(TerminalSignal.backgroundWrite.number)
      hasStoppedJobForForeground = true
    }
    if outcome == .redraw { hasStoppedJobForForeground = false }
    isWaitingForForeground = outcome == .waitForForeground
    switch (signal.response, outcome) {
    case (_, .waitForForeground):
      return .waitingForForeground
    case (.stop, .redraw):
      resumedFromOwnStop = true
      return .resumedAfterOwnStop
    case (.resume, .redraw):
      defer { resumedFromOwnStop = false }
      return .continued(afterOwnStop: resumedFromOwnStop)
    case (_, .resize), (_, .redraw):
      return .relayout
    }
  }

  /// Before each wait: true when the job, waiting in the background, has been
  /// brought to the foreground and raw mode is on again, so the exchange
  /// draws anew.
  mutating func returnToForeground(terminal: inout TerminalDevice) throws(TerminalError) -> Bool {
    guard isWaitingForForeground, terminal.isForeground, try terminal.resumeRawMode() else {
      return false
    }
    isWaitingForForeground = false
    hasStoppedJobForForeground = false
    return true
  }

  /// ^Z: stops the process group, as the terminal's suspend key would have
  /// before raw mode turned `ISIG` off. The relay catches the signal at the
  /// next wait and the exchange stops properly.
  static func suspend() {
    Platform.signalProcessGroup(TerminalSignal.terminalStop.number)
  }
}
