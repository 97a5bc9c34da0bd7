extension SignalRelay {
  /// What the main loop should do after ``respond(to:terminal:wipingFirst:)``.
  package enum Outcome: Sendable, Hashable {
    /// Raw mode is on again after a stop or a continue: draw the prompt anew.
    case redraw
    /// The terminal changed size: lay the prompt out again.
    case resize
    /// Continued in the background: nothing to draw; the next `SIGCONT` after
    /// `fg` brings raw mode back.
    case waitForForeground
  }

  /// Does what a prompt does for `signal`, the way OpenBSD's `readpassphrase`
  /// does, from the main loop rather than inside a handler.
  ///
  /// - Fatal signals (INT, TERM, HUP, QUIT, ALRM, PIPE): restores the terminal,
  ///   calls `wipe` (the caller wipes the secret), and dies by the same signal,
  ///   so the shell sees the real cause. Does not return.
  /// - Stops (TSTP, TTIN, TTOU): restores the terminal, stops by the same
  ///   signal, and once continued enters raw mode again (``Outcome/redraw``) if
  ///   in the foreground.
  /// - CONT: enters raw mode again (a no-op when it is on) and asks for a redraw.
  /// - WINCH: asks for a new layout.
  ///
  /// - Throws: ``TerminalError`` when raw mode cannot be entered again.
  package func respond(
    to signal: TerminalSignal, terminal: inout TerminalDevice, wipingFirst wipe: () -> Void
  ) throws(TerminalError) -> Outcome {
    switch signal.response {
    case .die:
      terminal.restoreModes()
      wipe()
      dieBy(signal)
    case .stop:
      terminal.restoreModes()
      stop(by: signal)
      return try terminal.resumeRawMode() ? .redraw : .waitForForeground
    case .resume:
      return try terminal.resumeRawMode() ? .redraw : .waitForForeground
    case .resize:
      return .resize
    }
  }

  /// Dies by `signal`: resets it to the default action, unblocks it and raises
  /// it (`sigaction`, `pthread_sigmask`, `raise`). If the process somehow
  /// survives, it exits at once with status 128 + the signal number, as a shell
  /// would report it.
  ///
  /// Restore the terminal and wipe secrets first: no deinit runs after this.
  package func dieBy(_ signal: TerminalSignal) -> Never {
    Platform.raiseWithDefaultAction(signal.number)
    Platform.exitImmediately(128 + signal.number)
  }

  /// Stops the process by `signal` (TSTP, TTIN or TTOU) with its default action,
  /// and returns when it is continued; then relays the signal again.
  ///
  /// Raising the same signal rather than `SIGSTOP` keeps the kernel's rule: in an
  /// orphaned process group, where no shell would ever continue it, the stop is
  /// discarded and this returns at once.
  package func stop(by signal: TerminalSignal) {
    Platform.raiseWithDefaultAction(signal.number)
    if relayedSignals.contains(signal) {
      let numbers = relayedSignals.map(\.number)
      _ = Platform.installHandler(relaySignal, for: signal.number, blocking: numbers)
    }
  }
}
