import SecretField
import SecureMemory

/// What a program that asks more than once (a pinentry's session) keeps from
/// one ``PasswordPrompt`` to the next: the signal relay, the key decoder's
/// secure buffers and the field's, made once instead of at every prompt.
///
/// Pass it to ``PasswordPrompt/run(annotatingEdits:afterFirstDraw:withdrawal:reusing:beforeRestoring:)``.
/// Between prompts the relay is paused (a
/// fatal signal kills the process as if no handler were installed) and every
/// buffer is wiped: each prompt starts with an empty field, masked as its
/// configuration says, and a decoder with no input and no caps-lock state.
/// A prompt whose configuration needs other buffers (other field limits, other
/// storage, another decoder configuration) makes its own for that run and
/// keeps them for the next.
///
/// The relay is installed for the resources' whole life, so no other signal
/// relay may be made meanwhile: pass the resources to a `ConfirmationPrompt`
/// too (``ConfirmationPrompt/run(reusing:)``).
///
/// - Complexity: making it costs what a prompt used to make at its start: a
///   pipe and two `sigaction` calls per relayed signal, and two secure
///   regions (each a `sodium_malloc` or a `memfd_secret` region, and its
///   verifying calls): the decoder's input and the field's text share one
///   (a `SharedSecureRegion`), the decoder's
///   payload has the other. A prompt that reuses them makes no system call
///   for them.
public final class PromptResources {
  /// The relay, paused while no prompt runs.
  let relay: SignalRelay
  /// The decoder, wiped; nil while a prompt has it.
  var decoder: KeyDecoder?
  /// The field, wiped; nil while a prompt has it.
  var field: SecretFieldState?
  /// What ``field`` was made for.
  var fieldLimits: FieldLimits
  var fieldStorage: SecureStorage

  /// Installs a paused relay and makes the buffers a prompt of
  /// `configuration` needs (its field limits, its storage, its escape
  /// timeout).
  ///
  /// - Precondition: no other signal relay is installed (no other
  ///   `PromptResources`, and no prompt running without them).
  /// - Throws: ``TerminalError``: `signalSetupFailed` when no pipe can be made,
  ///   `secureMemoryFailed` when secure memory cannot be had.
  public init(_ configuration: PromptConfiguration = PromptConfiguration()) throws(TerminalError) {
    let relay = try SignalRelay()
    relay.pauseRelaying()
    self.relay = relay
    var decoder: KeyDecoder?
    var field: SecretFieldState?
    try PromptBuffers.make(
      configuration: configuration,
      decoderConfiguration: PasswordPrompt.decoderConfiguration(for: configuration),
      decoder: &decoder, field: &field)
    self.decoder = decoder.take()
    self.field = field.take()
    fieldLimits = configuration.fieldLimits
    fieldStorage = configuration.storage
  }

  /// Lends the relay to `body`, relaying while it runs (for a dialog that
  /// runs its own ``TerminalEventLoop``); then pauses it, and dies by a fatal
  /// signal still in its pipe (one that came while `body` restored the
  /// terminal), as the prompt does.
  ///
  /// Restore the terminal inside `body`: a fatal signal after it returns
  /// kills the process at once.
  package func withRelay<Result, Failure: Error>(
    _ body: (borrowing SignalRelay) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    relay.resumeRelaying()
    defer {
      relay.pauseRelaying()
      TerminalSession.dieOfLateSignal(relay)
    }
    return try body(relay)
  }

  /// The kept decoder when it was made with `configuration` and knows no
  /// caps-lock state, else a new one: wiped, with no caps-lock state.
  ///
  /// A decoder that saw caps lock reports only its changes, and the new
  /// field starts not knowing it, so such a decoder is not reused: the field
  /// would miss a caps lock that stayed on.
  func takeDecoder(for configuration: KeyDecoder.Configuration) throws(TerminalError) -> KeyDecoder
  {
    // Wiped when it was kept: no second wipe (a protection pair per buffer).
    if let kept = decoder.take(), kept.configuration == configuration, kept.capsLock == nil {
      return kept
    }
    return try KeyDecoder(configuration: configuration)
  }

  /// The kept field when it suits `configuration` (the same limits and
  /// storage), else nil: the prompt then makes its own.
  func takeField(for configuration: PromptConfiguration) -> SecretFieldState? {
    guard configuration.fieldLimits == fieldLimits, configuration.storage == fieldStorage
    else { return nil }
    return field.take()
  }

  /// Keeps `decoder` for the next session; the session wiped it before it
  /// handed it back (`KeyDecoder/reset()`).
  func keep(decoder kept: consuming KeyDecoder) {
    decoder = consume kept
  }

  /// Keeps `field` (in `storage`) for the next prompt; the prompt wiped it
  /// before it handed it back (`SecretFieldState/clear()`: every byte of its
  /// buffer's capacity).
  func keep(field keptField: consuming SecretFieldState, storage: SecureStorage) {
    fieldLimits = keptField.limits
    fieldStorage = storage
    field = consume keptField
  }
}
