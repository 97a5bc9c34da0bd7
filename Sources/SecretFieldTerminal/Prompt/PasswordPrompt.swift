public import SecretField
public import SecureMemory

/// A password prompt on a terminal, with full line editing, that never leaves
/// the terminal broken.
///
/// The data path: bytes from the terminal are read straight into the key
/// decoder's secure memory; its events become edits on a `SecretFieldState`;
/// the field renders a masked line, which the renderer turns into screen
/// operations, drawing only what changed; the operations go to the terminal, revealed text from secure memory straight to
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
/// seen on the terminal's session (`RecordingDetector`), in which case reveal
/// is refused with the reason.
///
/// Terminal modes: raw mode entered with `TCSAFLUSH` (type-ahead is dropped,
/// not taken into the password), bracketed paste, focus reporting and, where
/// spoken, kitty keyboard flags 1, 8 and 16 on. Every
/// mode is restored on every way out: submit, cancel, timeout, a thrown error,
/// and signals. Signals are handled in the main loop through a signal
/// relay (a self-pipe in the same `poll` as the keys), as OpenBSD's `readpassphrase` does: INT, TERM, HUP, QUIT,
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
  ///   prompt then ends with `EntryOutcome.withdrawn`. Nil for none.
  /// - Parameter handOver: called with the result once the prompt is done
  ///   and before the terminal's modes are restored, unless a fatal signal
  ///   ends the process: work that passes the answer on (a password agent's
  ///   send to an asker that may be slow to read) runs while echo is still
  ///   off, so keys typed meanwhile are never echoed (restoring with
  ///   `TCSAFLUSH` then drops them). The process's signals wait until it
  ///   returns (the package's own variant of this method also gives it the
  ///   relay's descriptor, so that a wait in it ends at once on a signal). It
  ///   may read the password with `withUnsafeBytes`.
  /// - Parameter resources: the relay and buffers kept from the last prompt,
  ///   for a program that asks more than once; the prompt relays through the
  ///   kept relay while it runs, pauses it before it returns, and gives the
  ///   buffers back wiped. Nil makes them for this prompt and drops them after.
  /// - Returns: the password in secure memory, or why there is none.
  /// - Throws: ``TerminalError``: `noTerminal` or `notATerminal` when there is
  ///   no terminal to prompt on (the message says to run from a terminal or give
  ///   the secret another way, such as a `SecretSource`), others when
  ///   the terminal fails meanwhile. The terminal is restored before it throws.
  ///   A fatal signal does not return: the process dies by it.
  public func run(
    annotatingEdits annotate: ((borrowing SecretFieldState) -> String?)? = nil,
    afterFirstDraw: (() -> Void)? = nil,
    withdrawal: PromptWithdrawal? = nil,
    reusing resources: PromptResources? = nil,
    beforeRestoring handOver: (borrowing EntryOutcome<SecureBuffer>) -> Void = { _ in }
  ) throws(TerminalError) -> EntryOutcome<SecureBuffer> {
    let annotation: PromptAnnotation? = annotate.map { annotate in
      { field, _ in annotate(field) }
    }
    return try run(
      annotation: annotation, afterFirstDraw: afterFirstDraw, withdrawal: withdrawal,
      reusing: resources, beforeRestoring: { result, _ in handOver(result) })
  }

  /// ``run(annotatingEdits:afterFirstDraw:withdrawal:reusing:beforeRestoring:)``
  /// with an annotation that is also given what its wait should watch: one
  /// that waits (a pinentry's quality inquiry) ends the wait when one of the
  /// descriptors is readable, so keys and signals are served meanwhile. The
  /// hand-over is given the relay's descriptor likewise: a wait in it (a
  /// password agent's send to an asker that does not read) ends when it is
  /// readable, and a fatal signal then ends the process once the terminal is
  /// restored, at once rather than when the wait would have.
  package func run(
    annotation annotate: PromptAnnotation?,
    afterFirstDraw: (() -> Void)? = nil,
    withdrawal: PromptWithdrawal? = nil,
    reusing resources: PromptResources? = nil,
    beforeRestoring handOver: (borrowing EntryOutcome<SecureBuffer>, PromptWake) -> Void = { _, _ in
    }
  ) throws(TerminalError) -> EntryOutcome<SecureBuffer> {
    let decoderConfiguration = Self.decoderConfiguration(for: configuration)
    let setup = TerminalSession.Setup(
      terminalPath: configuration.terminalPath, features: configuration.terminalFeatures,
      decoderConfiguration: decoderConfiguration, resources: resources)
    var field: SecretFieldState? = nil
    defer {
      if let resources, let kept = field.take() {
        resources.keep(field: kept, storage: configuration.storage)
      }
    }
    return try TerminalSession.run(
      setup,
      makeDecoder: { () throws(TerminalError) -> KeyDecoder in
        if let resources {
          field = resources.takeField(for: configuration)
          return try resources.takeDecoder(for: decoderConfiguration)
        }
        // The decoder's input and the field's text share one region, so
        // a key's edit opens one window (see `PromptBuffers`).
        var decoder: KeyDecoder? = nil
        try PromptBuffers.make(
          configuration: configuration, decoderConfiguration: decoderConfiguration,
          decoder: &decoder, field: &field)
        return decoder.take()!
      }
    ) { terminal, relay, decoder, fatal throws(TerminalError) in
      try ask(
        terminal: &terminal, relay: relay, decoder: &decoder, field: &field, fatal: &fatal,
        annotate: annotate, afterFirstDraw: afterFirstDraw, withdrawal: withdrawal,
        handOver: handOver)
    }
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

  /// The prompt on a session's terminal: `field` is used when given (else
  /// made) and left in place, wiped, for the caller to keep; a fatal signal
  /// seen while waiting for the terminal's late replies goes to `fatal`;
  /// `handOver` sees the result before the session restores the terminal.
  private func ask(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder,
    field: inout SecretFieldState?, fatal: inout TerminalSignal?,
    annotate: PromptAnnotation?, afterFirstDraw: (() -> Void)?,
    withdrawal: PromptWithdrawal?,
    handOver: (borrowing EntryOutcome<SecureBuffer>, PromptWake) -> Void
  ) throws(TerminalError) -> EntryOutcome<SecureBuffer> {
    let locale = configuration.locale ?? .current
    var loop = try PromptLoop(
      configuration: configuration, locale: locale, terminal: terminal,
      annotates: annotate != nil, field: field.take())
    do {
      loop.answers = try PromptAnswers(configuration: configuration)
    } catch {
      field = loop.takeField()
      throw error
    }
    loop.looksForRecorderAfterFirstDraw =
      configuration.detectsRecording && !configuration.isCaptured
    loop.afterFirstDraw = afterFirstDraw
    loop.withdrawal = withdrawal
    let result: EntryOutcome<SecureBuffer>
    do {
      try loop.startHandshake(terminal: terminal)
      result = try loop.run(
        terminal: &terminal, relay: relay, decoder: &decoder, annotate: annotate)
    } catch {
      loop.abandon()
      field = loop.takeField()
      throw error
    }
    // A failure here leaves at worst a late reply unread, or the last frame
    // discarded by a ^C typed after Enter: the result stands.
    fatal = try? loop.awaitClosingReplies(terminal: &terminal, relay: relay, decoder: &decoder)
    field = loop.takeField()
    // Still in the prompt's modes: nothing typed while it runs is echoed.
    if fatal == nil { handOver(result, PromptWake(descriptors: [relay.descriptor], deadline: nil)) }
    return result
  }
}

/// The line under a prompt's field after an edit, from the field and what
/// a wait inside it should end on; nil for none.
package typealias PromptAnnotation = (borrowing SecretFieldState, PromptWake) -> String?

/// What ends a wait inside a prompt's annotation: the prompt has work.
package struct PromptWake: Sendable {
  /// Readable when there are keys or signals to serve: the terminal and the
  /// signal relay's pipe.
  package var descriptors: [Int32]
  /// The prompt's own deadline (its timeout, its asker's); nil for none.
  package var deadline: ContinuousClock.Instant?
}
