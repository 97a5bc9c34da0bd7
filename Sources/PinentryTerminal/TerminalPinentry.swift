public import Pinentry
public import SecretField
public import SecretFieldTerminal
public import SecureMemory
import SystemCalls

/// The terminal user interface of `pinentry-secretfield`: asks for passphrases
/// with `SecretFieldTerminal`'s `PasswordPrompt` and confirmations with
/// `ConfirmationPrompt`'s buttons, on the terminal the
/// client named.
///
/// The terminal is the one `OPTION ttyname` named (gpg-agent passes the
/// client's `GPG_TTY`), else `/dev/tty`; never the Assuan pipe, which is the
/// session's. Each request opens it, asks, restores it and closes it, so
/// between requests the terminal belongs to the shell again.
///
/// What a `GETPIN` shows: the error (`SETERROR`, or the repetition error after
/// a mismatch) under the field until the first key; the title and
/// description (`SETTITLE`, `SETDESC`) above the prompt; the prompt
/// (`SETPROMPT`); a hint line with the client's labels ("Tab: Make passphrase
/// visible · Enter: OK · Esc: Cancel"); with `SETQUALITYBAR`, a bar of the
/// client's quality estimate under the field, asked after every edit. Keys:
/// those of the prompt, except that ^Z only rings the bell (a pinentry is no
/// job of the terminal's shell: stopping its process group would stop
/// gpg-agent). Esc and ^D on an empty field cancel (`ERR 83886179`); ^C
/// cancels fully (`ERR 83886278`, and the connection closes): the agent then
/// stops asking for the whole operation.
///
/// While a request runs, a watch on the pipe the answers go to turns the
/// client's going away into `SIGHUP`, which the prompt answers as it answers
/// any fatal signal: terminal restored, field wiped, death by the signal.
///
/// The session keeps what every request needs (``resources``: the signal
/// relay, paused between requests, and the key decoder's and the field's
/// secure buffers, wiped between requests; and the watch, disarmed between
/// requests), so a `GETPIN` makes none of them.
///
/// - Complexity: per request, an open of the terminal, its modes, and a
///   recording check (about 0.1 ms, after the first draw); once per session,
///   the watch's thread (at the first request, once its prompt is drawn); with
///   a quality bar, one round trip to the client per edit; a key or a signal
///   that comes first ends the wait (the bar shows unknown) and is served.
public struct TerminalPinentry: PinentryInterface {
  /// The descriptor the answers go out on, watched while the user is asked:
  /// when nobody reads it any more (the client is gone), asking is pointless.
  /// nil watches nothing.
  public var clientOutput: Int32?
  /// Look for a recorder of the terminal's session when asking for a
  /// passphrase (`PromptConfiguration.detectsRecording`):
  /// through the terminal's session leader, since the pinentry's own parent is
  /// gpg-agent, whose environment says nothing of the terminal.
  public var detectsRecording: Bool
  /// The locale when the client named none (`OPTION lc-ctype`); nil reads it
  /// from the environment.
  public var fallbackLocale: TerminalLocale?

  /// The relay and the buffers kept from one request to the next; nil makes
  /// them at each request.
  public var resources: PromptResources?
  /// The memory passphrases and the prompt's buffers live in: sealed by
  /// default (`SecureStorage.sealed`: ciphertext under a key in secret
  /// memory; a pinentry lives as long as its session, so the hibernation
  /// that key blocks meanwhile costs nothing).
  public var storage: SecureStorage
  /// The watch on `clientOutput`, made at the first request and armed while
  /// each asks.
  var watch: HangUpWatch?

  /// An interface that watches `clientOutput` for the client's going away,
  /// asking through `resources` (see ``makeResources(storage:)``).
  public init(
    clientOutput: Int32? = 1, detectsRecording: Bool = true, fallbackLocale: TerminalLocale? = nil,
    resources: PromptResources? = nil, storage: SecureStorage = .sealed
  ) {
    self.storage = storage
    self.clientOutput = clientOutput
    self.detectsRecording = detectsRecording
    self.fallbackLocale = fallbackLocale
    self.resources = resources
  }

  /// The resources a session of this pinentry keeps: a paused relay, and
  /// the buffers of a prompt in `storage` (sealed by default).
  ///
  /// - Precondition: no other signal relay is installed.
  /// - Throws: `TerminalError` when secure memory or the
  ///   relay's pipe cannot be had.
  public static func makeResources(
    storage: SecureStorage = .sealed
  ) throws(TerminalError) -> PromptResources {
    var configuration = PromptConfiguration()
    configuration.storage = storage
    return try PromptResources(configuration)
  }

  /// Asks for the passphrase on the terminal.
  ///
  /// With a quality bar, every edit sends the field to the client as
  /// `INQUIRE QUALITY` (through a secure scratch buffer, wiped after each
  /// inquiry and freed when the prompt ends) and draws the answer; an empty
  /// field is not sent and draws an empty bar.
  public mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer> {
    let path = request.environment.ttyName ?? TerminalDevice.controllingTerminalPath
    let locale = Self.locale(for: request.environment, fallback: fallbackLocale)
    var configuration = Self.promptConfiguration(
      for: request, terminalPath: path, locale: locale, storage: storage)
    configuration.detectsRecording = detectsRecording
    // The watch is armed once the prompt is drawn, and the first request
    // starts its thread then, which would otherwise delay the draw; a client
    // gone before then is seen at once, and the relay is in place by then to
    // answer its SIGHUP.
    let clientOutput = clientOutput
    var watch = self.watch
    defer {
      watch?.disarm()
      self.watch = watch
      Self.touch(request.environment.touchFile)
    }
    let prompt = PasswordPrompt(configuration)
    var annotate: PromptAnnotation?
    if let quality, let bar = request.qualityBar {
      let meter = QualityMeter(label: bar.label, isUTF8: locale.isUTF8)
      let scratch: QualityScratch
      do { scratch = try QualityScratch(storage: storage) } catch {
        throw .general(error.description)
      }
      annotate = { field, wake in
        scratch.annotation(
          of: field, meter: meter, quality: quality, interruptedBy: wake.descriptors,
          until: wake.deadline)
      }
    }
    do {
      return try prompt.run(
        annotation: annotate,
        afterFirstDraw: {
          if watch == nil { watch = HangUpWatch(descriptor: clientOutput) }
          watch?.arm()
        }, reusing: resources)
    } catch {
      throw Self.assuanError(for: error, path: path)
    }
  }

  /// Asks the user to confirm, or shows a message, on the terminal.
  public mutating func confirm(
    _ request: ConfirmRequest
  ) throws(AssuanError) -> EntryOutcome<Void> {
    let path = request.environment.ttyName ?? TerminalDevice.controllingTerminalPath
    let locale = Self.locale(for: request.environment, fallback: fallbackLocale)
    let watch = self.watch ?? HangUpWatch(descriptor: clientOutput)
    self.watch = watch
    watch.arm()
    defer {
      watch.disarm()
      Self.touch(request.environment.touchFile)
    }
    do {
      return try Self.confirmationPrompt(for: request, terminalPath: path, locale: locale).run(
        reusing: resources)
    } catch {
      throw Self.assuanError(for: error, path: path)
    }
  }

  /// The terminal's locale: the client's `lc-ctype`, else `fallback`, else
  /// this process's environment.
  static func locale(
    for environment: PinentryEnvironment, fallback: TerminalLocale?
  ) -> TerminalLocale {
    if let lcCtype = environment.lcCtype { return TerminalLocale(localeName: lcCtype) }
    return fallback ?? .current
  }

  /// What the client gets when the terminal could not be used: a general
  /// error whose detail says why and what to set.
  static func assuanError(for error: TerminalError, path: String) -> AssuanError {
    switch error.code {
    case .noTerminal, .notATerminal:
      .general(
        "no terminal to prompt on: cannot use \(path); set GPG_TTY to the terminal "
          + "(export GPG_TTY=$(tty)) and run 'gpg-connect-agent updatestartuptty /bye'")
    default:
      .general(error.description)
    }
  }

  /// Touches `path` (`OPTION touch-file`, the agent's socket), so whoever
  /// watches it sees that the terminal was used and is restored.
  static func touch(_ path: String?) {
    guard let path else { return }
    System.touch(path)
  }
}

/// The secure buffer the field is copied into for a quality inquiry: reused
/// for every edit, emptied (wiped) right after each, freed with the prompt.
final class QualityScratch {
  var buffer: SecureBuffer

  /// The most bytes copied: a few past what the inquiry sends, so the session
  /// can cut back to the start of a character.
  static let capacity = PassphraseQuality.maximumPassphraseCount + 4

  init(storage: SecureStorage) throws(SecureMemoryError) {
    buffer = try SecureBuffer(capacity: Self.capacity, storage: storage)
  }

  /// The quality line for `field`: the client's estimate drawn by `meter`, or
  /// an empty bar for an empty field (nothing is sent). The wait for the
  /// estimate ends early, drawn as unknown, when one of `descriptors` (the
  /// terminal, the signal relay) is readable first or `deadline` passes.
  func annotation(
    of field: borrowing SecretFieldState, meter: QualityMeter, quality: PassphraseQuality,
    interruptedBy descriptors: [Int32] = [], until deadline: ContinuousClock.Instant? = nil
  ) -> String {
    guard !field.isEmpty else { return meter.line(score: 0) }
    defer { buffer.removeAll() }
    let copied: Bool = field.withSecret { bytes in
      let count = min(bytes.count, Self.capacity)
      do {
        try buffer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        return true
      } catch {
        return false
      }
    }
    guard copied else { return meter.line(score: nil) }
    return meter.line(
      score: quality.estimate(buffer, interruptedBy: descriptors, until: deadline))
  }
}
