extension PromptLoop {
  /// How long the prompt waits, at most, for a terminal that answered the
  /// handshake to answer again after the last frame.
  static let lastFrameReplyTimeout: Duration = .seconds(1)

  /// Makes sure the terminal took the last frame and the mode resets before
  /// the termios give the signal keys back.
  ///
  /// Once `ISIG` is on again, a `^C` typed after Enter makes the kernel
  /// discard the output the terminal has not taken in yet (unless `NOFLSH`):
  /// the masked last frame and `CSI ? 2004 l` with it, leaving bracketed
  /// paste on in the shell. So, still in raw mode, where `^C` is a key, the
  /// resets are written, then `CSI c`, and the terminal's answer is awaited:
  /// a terminal answers in order, after everything before the query. Only a
  /// terminal that answered the handshake is asked (``KeyboardProtocolHandshake/attributesRepliesToAwait``);
  /// the wait is at most ``lastFrameReplyTimeout``, ends at once on a
  /// signal, and drops the keys typed meanwhile, as restoring the modes
  /// would.
  ///
  /// - Returns: a fatal signal that came meanwhile, for the caller to die by
  ///   once the terminal is restored.
  mutating func awaitLastFrame(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder
  ) throws(TerminalError) -> TerminalSignal? {
    guard let replies = handshake.attributesRepliesToAwait else { return nil }
    terminal.resetPrivateModes()
    try terminal.write(ControlSequence.requestDeviceAttributes)
    var wait = LastFrameReply(
      handshake: handshake, repliesLeft: replies,
      deadline: .now + Self.lastFrameReplyTimeout)
    defer { handshake = wait.handshake }
    return try TerminalEventLoop.run(&wait, terminal: &terminal, relay: relay, decoder: &decoder)
  }

  /// The wait of ``awaitLastFrame(terminal:relay:decoder:)``: only the
  /// attributes replies count.
  struct LastFrameReply: TerminalEventHandler {
    var handshake: KeyboardProtocolHandshake
    var repliesLeft: Int
    let deadline: ContinuousClock.Instant
    var sawSignal = false

    var wakeTime: ContinuousClock.Instant? { deadline }

    var hangUpEnding: TerminalSignal? { nil }

    mutating func prepare(
      at now: ContinuousClock.Instant, terminal: inout TerminalDevice
    ) throws(TerminalError) -> TerminalEventResponse<TerminalSignal?> {
      sawSignal || repliesLeft <= 0 || now >= deadline ? .end(nil) : .proceed
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
      switch event {
      case .deviceAttributes:
        // The handshake's own reply, when it was still on its way, counts
        // too: the terminal answers in order.
        _ = handshake.receive(event)
        repliesLeft -= 1
        return repliesLeft <= 0 ? .end(nil) : .proceed
      case .keyboardFlags:
        _ = handshake.receive(event)
        return .proceed
      default:
        return .proceed
      }
    }

    mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {}
  }
}
