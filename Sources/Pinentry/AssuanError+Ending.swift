public import SecretField

extension AssuanError {
  /// The error that answers an entry ended without a passphrase, the one
  /// mapping every pinentry front end shares:
  ///
  /// | ending | `ERR` |
  /// |---|---|
  /// | cancelled by the interrupt key (Ctrl-C) | 83886278 `Operation fully cancelled`, and the session ends |
  /// | cancelled otherwise (Esc, Cancel, the window closed), the terminal or display gone, withdrawn, entries that never matched | 83886179 `Operation cancelled` |
  /// | declined (the not-OK button) | 83886194 `Not confirmed` |
  /// | timed out | 83886142 `Timeout` |
  ///
  /// A message (`CONFIRM --one-button`, `MESSAGE`) answers `OK` to a cancel or
  /// a decline, as pinentry does.
  public init(_ ending: EntryEnding) {
    switch ending {
    case .cancelled(.interrupt): self = .fullyCancelled
    case .declined: self = .notConfirmed
    case .timedOut: self = .timeout
    case .cancelled, .hungUp, .withdrawn, .confirmationFailed: self = .cancelled
    }
  }
}
