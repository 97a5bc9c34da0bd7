import SecureMemory

/// The one terminal event loop: waits on the terminal and the signal relay,
/// reads into the key decoder, keeps the decoder's deadlines, and hands each
/// signal, key event and wake-up to a ``TerminalEventHandler``.
///
/// One turn: ``TerminalEventHandler/prepare(at:terminal:)``; one `poll(2)` on
/// the terminal, the relay's self-pipe (and the handler's
/// ``TerminalEventHandler/watchedDescriptor``, if any) until the earliest of the decoder's
/// deadline (a lone Esc, a split sequence) and the handler's
/// ``TerminalEventHandler/wakeTime``; ``TerminalEventHandler/woke(at:readiness:)``
/// and the signals caught; one `read(2)` into the decoder's landing area, and
/// every event decoded and handled where it landed
/// (``KeyDecoder/read(from:maximumCount:at:handling:)``); then one
/// ``TerminalEventHandler/redraw(terminal:)`` when anything asked for it. When
/// only the terminal woke the loop, the key goes first and `woke` after it.
///
/// - Complexity: per key, what the decoder and the handler cost; the loop
///   itself allocates nothing.
package enum TerminalEventLoop {
  /// `EIO`: what `read(2)` reports once a terminal has hung up.
  static let inputOutputError: Int32 = 5

  /// Runs `handler` until it ends the loop, and returns its ending.
  ///
  /// - Throws: ``TerminalError`` from the terminal, the decoder or the handler;
  ///   the caller restores the terminal.
  package static func run<Handler: TerminalEventHandler & ~Copyable>(
    _ handler: inout Handler, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder: inout KeyDecoder
  ) throws(TerminalError) -> Handler.Ending {
    var decoderDeadline: ContinuousClock.Instant?
    // Declared once, outside the turn: `handle` below captures both, and a
    // captured variable declared inside the loop was boxed on the heap every
    // turn (two allocations a key, found with a `malloc` probe).
    var needsRedraw = false
    var ending: Handler.Ending?
    while true {
      needsRedraw = false
      ending = nil
      switch try handler.prepare(at: .now, terminal: &terminal) {
      case .proceed: break
      case .redraw: needsRedraw = true
      case .end(let ending): return ending
      }
      if needsRedraw { try handler.redraw(terminal: &terminal) }
      needsRedraw = false
      let wake = earliest(decoderDeadline, handler.wakeTime)
      let readiness = try terminal.waitForInput(
        or: relay, watching: handler.watchedDescriptor, until: wake)
      // A key and nothing else is read, decoded and echoed before the
      // handler hears of the wake: after an idle wait every instruction runs
      // cold, and only the key's own path lies between the wake and its echo.
      let keyFirst = readiness == .input
      if !keyFirst {
        switch try handler.woke(at: .now, readiness: readiness) {
        case .proceed: break
        case .redraw: needsRedraw = true
        case .end(let ending): return ending
        }
      }
      if readiness.contains(.signal) {
        for signal in relay.pendingSignals() {
          switch try handler.handle(signal, terminal: &terminal, relay: relay, decoder: &decoder) {
          case .proceed: break
          case .redraw: needsRedraw = true
          case .end(let ending): return ending
          }
        }
      }
      // Every event is handled inside the decoder's one window on its input,
      // the one the `read` was made in: a text key goes to the field from
      // where it arrived.
      func handle(_ event: KeyEvent, _ payload: UnsafeRawBufferPointer) throws(TerminalError)
        -> Bool
      {
        switch try handler.handle(event, payload: payload, at: .now, terminal: &terminal) {
        case .proceed: return true
        case .redraw:
          needsRedraw = true
          return true
        case .end(let end):
          ending = end
          return false
        }
      }
      var last: KeyDecoder.Step?
      var decoded = false
      if readiness.contains(.input) {
        let descriptor = terminal.descriptor
        do {
          let read = try decoder.read(from: descriptor, at: .now, handling: handle)
          if read.outcome == .endOfFile { return handler.hangUpEnding }
          if case .bytes = read.outcome {
            decoded = true
            last = read.step
          }
        } catch {
          guard error.code == .readFailed, error.errno == inputOutputError else { throw error }
          return handler.hangUpEnding
        }
      }
      if !decoded { last = try decoder.decode(at: .now, handling: handle) }
      if let ending { return ending }
      if keyFirst {
        switch try handler.woke(at: .now, readiness: readiness) {
        case .proceed: break
        case .redraw: needsRedraw = true
        case .end(let ending): return ending
        }
      }
      decoderDeadline = nil
      if case .needsInputBefore(let instant) = last { decoderDeadline = instant }
      if needsRedraw { try handler.redraw(terminal: &terminal) }
    }
  }

  /// The earlier of two optional instants, without building an array.
  static func earliest(
    _ first: ContinuousClock.Instant?, _ second: ContinuousClock.Instant?
  ) -> ContinuousClock.Instant? {
    guard let first else { return second }
    guard let second else { return first }
    return min(first, second)
  }
}
