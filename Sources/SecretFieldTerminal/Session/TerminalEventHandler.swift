/// A front end run by ``TerminalEventLoop``: it keeps its own state and
/// drawing, and says after each event what the loop does next.
///
/// The password prompt, ``ConfirmationPrompt`` and the pinentry's dialog are
/// handlers; none has a loop of its own, so a change to how the terminal is
/// waited on, read or hung up on is made once.
package protocol TerminalEventHandler: ~Copyable {
  /// What the loop returns when the handler ends it.
  associatedtype Ending

  /// The earliest time the handler wants ``prepare(at:terminal:)`` called
  /// again without input (a timeout, the end of a reveal), or nil.
  var wakeTime: ContinuousClock.Instant? { get }

  /// Called before each wait: the place for timeouts and for work that does
  /// not come from an event (drawing again once back in the foreground).
  mutating func prepare(
    at now: ContinuousClock.Instant, terminal: inout TerminalDevice
  ) throws(TerminalError) -> TerminalEventResponse<Ending>

  /// A descriptor of the handler's to wait on beside the terminal and the
  /// relay (a caller's way to take a question back), or nil.
  var watchedDescriptor: Int32? { get }

  /// Called after each wait, before what it brought is handled; `readiness`
  /// says what woke it (``Readiness/watched`` for ``watchedDescriptor``).
  mutating func woke(
    at now: ContinuousClock.Instant, readiness: Readiness
  ) throws(TerminalError) -> TerminalEventResponse<Ending>

  /// A signal the relay caught (stop, continue, resize, or a fatal one, which
  /// `SignalRelay.respond(to:terminal:wipingFirst:)` does not return from).
  mutating func handle(
    _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder: inout KeyDecoder
  ) throws(TerminalError) -> TerminalEventResponse<Ending>

  /// A key event; `payload` is the text or paste it brought, in the decoder's
  /// secure memory, lent for the call only.
  mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
    terminal: inout TerminalDevice
  ) throws(TerminalError) -> TerminalEventResponse<Ending>

  /// Draws what changed, after the events that asked for it.
  mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError)

  /// What the loop returns when the terminal hangs up (end of file, or `EIO`).
  var hangUpEnding: Ending { get }
}

extension TerminalEventHandler where Self: ~Copyable {
  /// No wake-up of its own.
  package var wakeTime: ContinuousClock.Instant? { nil }

  /// Nothing to watch but the terminal and the relay.
  package var watchedDescriptor: Int32? { nil }

  /// Nothing to do after a wait.
  package mutating func woke(
    at now: ContinuousClock.Instant, readiness: Readiness
  ) throws(TerminalError) -> TerminalEventResponse<Ending> {
    .proceed
  }
}
