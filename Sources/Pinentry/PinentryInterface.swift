public import SecretField
public import SecureMemory

/// The user interface behind a pinentry: what asks the user, while
/// ``PinentrySession`` speaks Assuan with the client.
///
/// The session calls one method per request and waits for it to return; the
/// interface owns the terminal meanwhile. Every text it is given is ready to
/// show: percent-unescaped, accelerator marks (`_`) stripped from labels,
/// defaults filled in from the client's `OPTION default-*` or our own.
///
/// - `GETPIN` calls ``getPin(_:quality:)``, twice when the client asked for a
///   repetition (`SETREPEAT`): once with ``PinRequest/Stage-swift.enum/passphrase``, then
///   with ``PinRequest/Stage-swift.enum/repetition``. The session compares the two entries
///   in constant time; on a mismatch it asks for both again, with the
///   repetition error as ``PinRequest/error``.
/// - `CONFIRM` calls ``confirm(_:)`` with OK and Cancel (and not-OK when the
///   client set one); `CONFIRM --one-button` and `MESSAGE` call it with OK alone
///   (``ConfirmRequest/cancelLabel`` nil).
public protocol PinentryInterface: ~Copyable {
  /// Asks the user for a passphrase.
  ///
  /// Return the passphrase in a `SecureBuffer` (the session writes it to the
  /// client from there, then wipes and frees it), or how the entry ended
  /// without one (the session answers with ``AssuanError/init(_:)``); throw
  /// when the interface could not ask at all (no terminal, say).
  ///
  /// - Parameters:
  ///   - request: what to show and how long to wait.
  ///   - quality: when the client asked for a quality bar, the way to ask it
  ///     how good the passphrase typed so far is; call
  ///     ``PassphraseQuality/estimate(_:interruptedBy:until:)`` as the user
  ///     edits and draw the answer. Valid only until this call returns.
  mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer>

  /// Asks the user to confirm, or shows a message with one button: yes
  /// (`EntryOutcome.submitted`), or how it ended without; throw when
  /// the interface could not ask.
  mutating func confirm(_ request: ConfirmRequest) throws(AssuanError) -> EntryOutcome<Void>
}
