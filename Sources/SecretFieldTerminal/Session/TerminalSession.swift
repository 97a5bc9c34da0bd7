/// The one way the package takes over a terminal for an exchange with the
/// user: the password prompt, the confirmation and the pinentry's dialogs are
/// each a body run here.
///
/// It opens the terminal, catches signals through a ``SignalRelay`` (the one
/// of a ``PromptResources`` when given, relaying only while the session runs),
/// enters raw mode (stopping by `SIGTTOU` when started in the background, as
/// the terminal stops a background job that changes its modes, and trying
/// again once `fg` continued it), lends the body the terminal, the relay and a
/// key decoder (the kept one when it suits), and on every way out (a result, a
/// thrown error) wipes the decoder, restores the terminal's modes and then
/// dies by a fatal signal that came meanwhile, as it would have a moment
/// earlier.
enum TerminalSession {
  /// What a session runs on.
  struct Setup {
    /// The terminal to open.
    var terminalPath: String
    /// The modes beyond raw mode (bracketed paste, focus reports, ...).
    var features: TerminalFeatures
    /// The decoder's limits.
    var decoderConfiguration = KeyDecoder.Configuration()
    /// A session's kept relay and buffers, or nil to make them for this run.
    var resources: PromptResources?
  }

  /// Runs `body` on the terminal of `setup`, in raw mode, with the decoder
  /// `makeDecoder` gives once raw mode is on (by default the kept one when it
  /// suits, else a new one).
  ///
  /// `body` may set its last argument to a fatal signal it saw but did not die
  /// by (a wait after the answer): the session dies by it once the terminal is
  /// restored.
  ///
  /// - Throws: ``TerminalError`` from opening the terminal, its modes, the relay,
  ///   the decoder or `body`; the terminal is restored first.
  static func run<Result: ~Copyable>(
    _ setup: Setup,
    makeDecoder: (() throws(TerminalError) -> KeyDecoder)? = nil,
    _ body: (
      inout TerminalDevice, borrowing SignalRelay, inout KeyDecoder, inout TerminalSignal?
    ) throws(TerminalError) -> Result
  ) throws(TerminalError) -> Result {
    var terminal = try TerminalDevice(path: setup.terminalPath)
    guard let resources = setup.resources else {
      // The relay first: a signal that comes once raw mode is on must find it.
      let relay = try SignalRelay()
      return try run(
        setup, terminal: &terminal, relay: relay, pausesRelay: false, makeDecoder: makeDecoder,
        body)
    }
    resources.relay.resumeRelaying()
    return try run(
      setup, terminal: &terminal, relay: resources.relay, pausesRelay: true,
      makeDecoder: makeDecoder, body)
  }

  private static func run<Result: ~Copyable>(
    _ setup: Setup, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    pausesRelay: Bool, makeDecoder: (() throws(TerminalError) -> KeyDecoder)?,
    _ body: (
      inout TerminalDevice, borrowing SignalRelay, inout KeyDecoder, inout TerminalSignal?
    ) throws(TerminalError) -> Result
  ) throws(TerminalError) -> Result {
    // With `pausesRelay` the relay is paused once the terminal is restored and
    // before the last look at its pipe, so no signal falls between the two.
    func restore(_ terminal: inout TerminalDevice) {
      terminal.restoreModes()
      if pausesRelay { relay.pauseRelaying() }
      dieOfLateSignal(relay)
    }
    do {
      try enterRawMode(&terminal, features: setup.features, relay: relay)
    } catch {
      restore(&terminal)
      throw error
    }
    var decoder: KeyDecoder
    do {
      if let makeDecoder {
        decoder = try makeDecoder()
      } else if let resources = setup.resources {
        decoder = try resources.takeDecoder(for: setup.decoderConfiguration)
      } else {
        decoder = try KeyDecoder(configuration: setup.decoderConfiguration)
      }
    } catch {
      restore(&terminal)
      throw error
    }
    var fatal: TerminalSignal?
    let result: Result
    do {
      result = try body(&terminal, relay, &decoder, &fatal)
    } catch {
      decoder.reset()
      setup.resources?.keep(decoder: decoder)
      restore(&terminal)
      throw error
    }
    decoder.reset()
    setup.resources?.keep(decoder: decoder)
    terminal.restoreModes()
    if pausesRelay { relay.pauseRelaying() }
    if let fatal { relay.dieBy(fatal) }
    dieOfLateSignal(relay)
    return result
  }

  /// Enters raw mode. Started in the background (`secretfield prompt &`), it
  /// stops the job by `SIGTTOU`, as the terminal stops a background job that
  /// changes its modes (the relay caught the terminal's own `SIGTTOU`), and
  /// tries again once `fg` continued it.
  static func enterRawMode(
    _ terminal: inout TerminalDevice, features: TerminalFeatures, relay: borrowing SignalRelay
  ) throws(TerminalError) {
    do {
      try terminal.enterRawMode(features: features)
      return
    } catch {
      guard !terminal.isForeground else { throw error }
    }
    dieOfLateSignal(relay)
    // The whole job, so the shell sees it stopped and `fg` continues it; the
    // relay catches this process's copy, which then stops by its own.
    Platform.signalProcessGroup(TerminalSignal.backgroundWrite.number)
    relay.stop(by: .backgroundWrite)
    dieOfLateSignal(relay)
    // Still in the background (an orphaned group discards the stop): give up.
    try terminal.enterRawMode(features: features)
  }

  /// A fatal signal that came while the modes were restored still ends the
  /// process, as it would have a moment earlier.
  static func dieOfLateSignal(_ relay: borrowing SignalRelay) {
    for signal in relay.pendingSignals() where signal.response == .die {
      relay.dieBy(signal)
    }
  }
}
