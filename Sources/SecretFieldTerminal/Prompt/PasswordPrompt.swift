public import SecretField
import SecureMemory

/// A password prompt on a terminal, with full line editing, that never leaves
/// the terminal broken.
///
/// The data path: bytes from the terminal are read straight into the
/// ``KeyDecoder``'s secure memory; its events become edits on a
/// `SecretFieldState` (``PromptEditor``); the field renders a
/// masked line, which ``PromptRenderer`` turns into screen operations; the
/// operations go to the terminal, revealed text from secure memory straight to
/// `write(2)`. The password is never in ordinary memory.
///
/// ```swift
/// var configuration = PromptConfiguration(prompt: "Passphrase:")
/// configuration.confirmation = .init()
/// let result = try PasswordPrompt(configuration).run()
/// switch consume result {
/// case .submitted(let secret): try secret.write(to: 1)
/// default: exit(1)  // cancelled, timed out, hung up, confirmation failed
/// }
/// ```
///
/// What the terminal knows, the prompt uses: focus reporting, so losing focus
/// hides a last-typed character and masks a revealed password; the kitty
/// keyboard protocol where the terminal speaks it (asked for without waiting,
/// see ``TerminalFeatures/keyboardProtocol``), so "Caps Lock is on" shows under
/// the field while it is; and, when the prompt starts, whether a recorder is
/// seen on the terminal's session (``RecordingDetector``), in which case reveal
/// is refused with the reason.
///
/// Terminal modes: raw mode entered with `TCSAFLUSH` (type-ahead is dropped,
/// not taken into the password), bracketed paste, focus reporting and, where
/// spoken, kitty keyboard flags 1, 8 and 16 on. Every
/// mode is restored on every way out: submit, cancel, timeout, a thrown error,
/// and signals. Signals are handled in the main loop through a
/// ``SignalRelay``, as OpenBSD's `readpassphrase` does: INT, TERM, HUP, QUIT,
/// ALRM and PIPE mask the line, restore the terminal, wipe the field and kill
/// the process by the same signal; TSTP, TTIN and TTOU (and ^Z) mask the line,
/// restore and stop, and on CONT the prompt comes back on a fresh line with the
/// text kept; WINCH lays the line out again.
///
/// The screen: nothing revealed stays on it. Before the prompt ends (or stops,
/// or dies by a signal) the line is drawn masked again and the lines under it
/// erased.
public struct PasswordPrompt: Sendable {
  /// What to ask and how.
  public var configuration: PromptConfiguration

  /// A prompt with `configuration`.
  public init(_ configuration: PromptConfiguration = PromptConfiguration()) {
    self.configuration = configuration
  }

  /// Prompts on ``PromptConfiguration/terminalPath`` (the controlling terminal
  /// by default) until the user submits or cancels, the timeout runs out, or
  /// the terminal goes away.
  ///
  /// - Parameter annotate: called with the field after each edit; the line it
  ///   returns is shown under the field (a pinentry's quality bar), nil for
  ///   none. It may read the field with `SecretFieldState/withSecret(_:)`.
  /// - Parameter afterFirstDraw: called once, when the prompt is first on the
  ///   screen and the relay catches signals: work that no key needs before it
  ///   (a pinentry's watch on its client) costs the user no wait for the prompt.
  /// - Parameter withdrawal: how the asker may take the question back while it
  ///   is on the screen (a password agent's request that went away); the
  ///   prompt then ends with ``PromptResult/withdrawn``. Nil for none.
  /// - Parameter resources: the relay and buffers kept from the last prompt,
  ///   for a program that asks more than once; the prompt relays through the
  ///   kept relay while it runs, pauses it before it returns, and gives the
  ///   buffers back wiped. Nil makes them for this prompt and drops them after.
  /// - Returns: the password in secure memory, or why there is none.
  /// - Throws: ``PromptError``: `noTerminal` or `notATerminal` when there is
  ///   no terminal to prompt on (the message says to run from a terminal or give
  ///   the secret another way, such as a ``SecretSource``), others when
  ///   the terminal fails meanwhile. The terminal is restored before it throws.
  ///   A fatal signal does not return: the process dies by it.
  public func run(
    annotatingEdits annotate: ((borrowing SecretFieldState) -> String?)? = nil,
    afterFirstDraw: (() -> Void)? = nil,
    withdrawal: PromptWithdrawal? = nil,
    reusing resources: PromptResources? = nil
  ) throws(PromptError) -> PromptResult {
    var terminal = try TerminalDevice(path: configuration.terminalPath)
    let decoderConfiguration = Self.decoderConfiguration(for: configuration)
    guard let resources else {
      // The relay first: a signal that comes once raw mode is on must find it.
      let relay = try SignalRelay()
      var decoder: KeyDecoder? = nil
      var field: SecretFieldState? = nil
      return try run(
        terminal: &terminal, relay: relay, decoder: &decoder, field: &field,
        decoderConfiguration: decoderConfiguration, pausesRelay: false,
        annotate: annotate, afterFirstDraw: afterFirstDraw, withdrawal: withdrawal)
    }
    var decoder: KeyDecoder? = try resources.takeDecoder(for: decoderConfiguration)
    var field = resources.takeField(for: configuration)
    resources.relay.resumeRelaying()
    defer {
      if let kept = decoder.take(), let keptField = field.take() {
        resources.keep(decoder: kept, field: keptField, storage: configuration.storage)
      }
    }
    return try run(
      terminal: &terminal, relay: resources.relay, decoder: &decoder, field: &field,
      decoderConfiguration: decoderConfiguration, pausesRelay: true,
      annotate: annotate, afterFirstDraw: afterFirstDraw, withdrawal: withdrawal)
  }

  /// The decoder's limits for a prompt of `configuration`.
  static func decoderConfiguration(
    for configuration: PromptConfiguration
  ) -> KeyDecoder.Configuration {
    var decoderConfiguration = KeyDecoder.Configuration()
    decoderConfiguration.escapeTimeout = configuration.escapeTimeout
    decoderConfiguration.maximumPasteCount = configuration.fieldLimits.maxBytes
    decoderConfiguration.storage = configuration.storage
    return decoderConfiguration
  }

  /// The prompt, on a relay that is relaying: `decoder` and `field` are used
  /// when given (else made) and left in place, wiped, for the caller to keep.
  /// With `pausesRelay` the relay is paused once the terminal is restored and
  /// before the last look at its pipe, so no signal falls between the two.
  private func run(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder keptDecoder: inout KeyDecoder?,
    field: inout SecretFieldState?, decoderConfiguration: KeyDecoder.Configuration,
    pausesRelay: Bool,
    annotate: ((borrowing SecretFieldState) -> String?)?, afterFirstDraw: (() -> Void)?,
    withdrawal: PromptWithdrawal?
  ) throws(PromptError) -> PromptResult {
    let locale = configuration.locale ?? .current
    func restore(_ terminal: inout TerminalDevice) {
      terminal.restoreModes()
      if pausesRelay {
        relay.pauseRelaying()
        Self.dieOfLateSignal(relay)
      }
    }
    do {
      try Self.enterRawMode(&terminal, features: configuration.terminalFeatures, relay: relay)
    } catch {
      restore(&terminal)
      throw error
    }
    if keptDecoder == nil && field == nil {
      do {
        try PromptBuffers.make(
          configuration: configuration, decoderConfiguration: decoderConfiguration,
          decoder: &keptDecoder, field: &field)
      } catch {
        restore(&terminal)
        throw error
      }
    }
    // Should either throw, dropping the terminal restores its modes.
    var decoder: KeyDecoder
    if let kept = keptDecoder.take() {
      decoder = kept
    } else {
      do { decoder = try KeyDecoder(configuration: decoderConfiguration) } catch {
        restore(&terminal)
        throw error
      }
    }
    var loop: PromptLoop
    do {
      loop = try PromptLoop(
        configuration: configuration, locale: locale, terminal: terminal,
        annotates: annotate != nil, field: field.take())
    } catch {
      keptDecoder = consume decoder
      restore(&terminal)
      throw error
    }
    do {
      loop.answers = try PromptAnswers(configuration: configuration)
    } catch {
      field = loop.takeField()
      keptDecoder = consume decoder
      restore(&terminal)
      throw error
    }
    loop.looksForRecorderAfterFirstDraw =
      configuration.detectsRecording && !configuration.isCaptured
    loop.afterFirstDraw = afterFirstDraw
    loop.withdrawal = withdrawal
    let result: PromptResult
    do {
      try loop.startHandshake(terminal: terminal)
      result = try loop.run(
        terminal: &terminal, relay: relay, decoder: &decoder, annotate: annotate)
    } catch {
      loop.abandon()
      field = loop.takeField()
      decoder.reset()
      keptDecoder = consume decoder
      restore(&terminal)
      throw error
    }
    // A failure here leaves at worst a late reply unread: the result stands.
    let fatal = try? loop.awaitHandshakeReplies(
      terminal: &terminal, relay: relay, decoder: &decoder)
    field = loop.takeField()
    decoder.reset()
    keptDecoder = consume decoder
    terminal.restoreModes()
    if pausesRelay { relay.pauseRelaying() }
    if let fatal { Self.die(by: fatal, relay: relay) }
    Self.dieOfLateSignal(relay)
    return result
  }

  /// Enters raw mode. Started in the background (`secretfield prompt &`), it
  /// stops the job by `SIGTTOU`, as the terminal stops a background job that
  /// changes its modes (the relay caught the terminal's own `SIGTTOU`), and
  /// tries again once `fg` continued it.
  static func enterRawMode(
    _ terminal: inout TerminalDevice, features: TerminalFeatures, relay: borrowing SignalRelay
  ) throws(PromptError) {
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

  /// Dies by `signal` (a fatal one the loop saw last), through a borrowed
  /// relay: no noncopyable value of the caller's is alive at the call that
  /// never returns.
  static func die(by signal: TerminalSignal?, relay: borrowing SignalRelay) {
    if let signal { relay.dieBy(signal) }
  }

  /// A fatal signal that came while the modes were restored still ends the
  /// process, as it would have a moment earlier.
  static func dieOfLateSignal(_ relay: borrowing SignalRelay) {
    for signal in relay.pendingSignals() where signal.response == .die {
      relay.dieBy(signal)
    }
  }
}
