public import SecureMemory

/// How ``PinentryInterface/getPin(_:quality:)`` ended.
public enum PinResult: ~Copyable {
  /// The user entered this passphrase (possibly empty). The session takes the
  /// buffer, writes it to the client, and wipes and frees it.
  case entered(SecureBuffer)
  /// The user cancelled (Esc): `ERR 83886179`.
  case cancelled
  /// The request's timeout ran out: `ERR 83886142`.
  case timedOut
  /// The user pressed Ctrl-C: `ERR 83886278`, and the session closes the
  /// connection.
  case fullyCancelled
  /// The interface could not ask (no terminal, say): `ERR` with this error.
  case failed(AssuanError)
}
