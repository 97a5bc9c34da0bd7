/// How ``PinentryInterface/confirm(_:)`` ended.
public enum ConfirmResult: Sendable, Hashable {
  /// The user chose OK: `OK`.
  case confirmed
  /// The user chose the not-OK button: `ERR 83886194` (`OK` for a message).
  case declined
  /// The user cancelled: `ERR 83886179` (`OK` for a message).
  case cancelled
  /// The request's timeout ran out: `ERR 83886142`.
  case timedOut
  /// The user pressed Ctrl-C: `ERR 83886278`, and the session closes the
  /// connection.
  case fullyCancelled
  /// The interface could not ask: `ERR` with this error.
  case failed(AssuanError)
}
