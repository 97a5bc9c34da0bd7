extension PromptLoop {
  /// How long the prompt waits, at most, for a terminal that answered the
  /// handshake to answer again after the last frame.
  static let lastFrameReplyTimeout: Duration = .seconds(1)

  /// After the prompt ended: reads the terminal's replies still due, so that
  /// none is left for the shell or the next program to read as keys, and
  /// makes sure the terminal took the last frame and the mode resets before
  /// the termios give the signal keys back.
  ///
  /// First, a handshake still unanswered (a password typed or pasted with
  /// Enter at once) is awaited until its deadline. Then, once the terminal
  /// is known to answer `CSI c` (``KeyboardProtocolHandshake/attributesRepliesToAwait``),
  /// the resets are written, then `CSI c`, and every attributes reply still
  /// due is awaited, the handshake's own included: a terminal answers in
  /// order, after everything before the query. That matters because once
  /// `ISIG` is on again, a `^C` typed after Enter makes the kernel discard
  /// the output the terminal has not taken in yet (unless `NOFLSH`): the
  /// masked last frame and `CSI ? 2004 l` with it, leaving bracketed paste on
  /// in the shell. Still in raw mode, `^C` is a key.
  ///
  /// The second wait is at most ``lastFrameReplyTimeout``; either ends at
  /// once on a signal, and keys typed meanwhile are dropped, as restoring
  /// the modes would drop them.
  ///
  /// - Returns: a fatal signal that came meanwhile, for the caller to die by
  ///   once the terminal is restored.
  mutating func awaitClosingReplies(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder
  ) throws(TerminalError) -> TerminalSignal? {
    var wait = ClosingReplies(handshake: handshake)
    defer { handshake = wait.handshake }
    return try TerminalEventLoop.run(&wait, terminal: &terminal, relay: relay, decoder: &decoder)
  }

  /// The wait of ``awaitClosingReplies(terminal:relay:decoder:)`` on the
  /// terminal event loop: only the replies matter now.
  struct ClosingReplies: TerminalEventHandler {
    var handshake: KeyboardProtocolHandshake
    /// The attributes replies still due once the last frame's `CSI c` went
    /// out, and when the wait for them ends; nil before.
    var lastFrame: (repliesLeft: Int, deadline: ContinuousClock.Instant)?
    var sawSignal = false

    var wakeTime: ContinuousClock.Instant? { lastFrame?.deadline ?? handshake.deadline }

    var hangUpEnding: TerminalSignal? { nil }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<TerminalSignal?> {
      if sawSignal { return .end(nil) }
      if let lastFrame {
        return lastFrame.repliesLeft <= 0 || now >= lastFrame.deadline ? .end(nil) : .proceed
      }
      handshake.expire(at: now)
      if handshake.deadline != nil { return .proceed }
      guard let replies = handshake.attributesRepliesToAwait else { return .end(nil) }
      terminal.resetPrivateModes()
      try terminal.write(ControlSequence.requestDeviceAttributes)
      lastFrame = (replies, now + PromptLoop.lastFrameReplyTimeout)
      return .proceed
    }

    mutating func handle(
      _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
      decoder: inout KeyDecoder
    ) throws(TerminalError) -> TerminalEventResponse<TerminalSignal?> {
      sawSignal = true
      return signal.response == .die ? .end(signal) : .proceed
    }

    mutating func handle(
      _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
      terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<TerminalSignal?> {
      // `receive` ignores everything but the replies.
      _ = handshake.receive(event)
      // The next `prepare` ends the wait once no reply is left.
      if case .deviceAttributes = event { lastFrame?.repliesLeft -= 1 }
      return .proceed
    }

    mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {}
  }
}
