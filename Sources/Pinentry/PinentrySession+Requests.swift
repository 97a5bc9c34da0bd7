import SecretField
import SecureMemory

extension PinentrySession where Interface: ~Copyable {
  /// Serves `GETPIN`: asks the interface (twice with `SETREPEAT`), and sends
  /// the passphrase as `D` lines and `OK`, or the error.
  ///
  /// With a repetition, the two entries are compared with
  /// `SecureBuffer.constantTimeEquals`; on a mismatch both are freed and the
  /// user is asked again, with the repetition error shown. On a match
  /// `S PIN_REPEATED` comes before the `D` lines. An empty passphrase is sent as
  /// no `D` line at all, as pinentry does. Afterwards the error, the
  /// repetition and the quality bar are forgotten.
  mutating func getPin() throws(PinentryError) -> PinentryEnding? {
    connection.pinRequestGeneration += 1
    connection.isServingPinRequest = true
    defer {
      connection.isServingPinRequest = false
      settings.finishPinRequest()
    }
    var error = settings.error
    while true {
      let quality = settings.qualityBar == nil ? nil : PassphraseQuality(connection: connection)
      let entry: EntryOutcome<SecureBuffer>
      do {
        entry = try interface.getPin(
          settings.pinRequest(stage: .passphrase, error: error), quality: quality)
      } catch {
        if let ending = try endingAfterInterface() { return ending }
        return try fail(error)
      }
      if let ending = try endingAfterInterface() { return ending }
      let passphrase: SecureBuffer
      switch consume entry {
      case .submitted(let entered): passphrase = entered
      case .ended(let ending): return try fail(AssuanError(ending))
      }
      guard settings.repeatPrompt != nil else {
        return try deliver(passphrase, repeated: false)
      }
      let second: EntryOutcome<SecureBuffer>
      do {
        second = try interface.getPin(
          settings.pinRequest(stage: .repetition, error: nil), quality: nil)
      } catch {
        if let ending = try endingAfterInterface() { return ending }
        return try fail(error)
      }
      if let ending = try endingAfterInterface() { return ending }
      switch consume second {
      case .submitted(let repetition):
        if passphrase.constantTimeEquals(repetition) {
          return try deliver(passphrase, repeated: true)
        }
        error = settings.repeatError ?? PinentrySettings.defaultRepeatError
      case .ended(let ending): return try fail(AssuanError(ending))
      }
    }
  }

  /// Serves `CONFIRM`, `CONFIRM --one-button` and `MESSAGE`.
  ///
  /// A message (one button) answers `OK` however the user closed it, unless
  /// the time ran out, the user pressed Ctrl-C, or the interface failed, as
  /// pinentry answers it.
  mutating func confirm(oneButton: Bool) throws(PinentryError) -> PinentryEnding? {
    let result: EntryOutcome<Void>
    do {
      result = try interface.confirm(settings.confirmRequest(oneButton: oneButton))
    } catch {
      settings.finishConfirmRequest()
      if let ending = try endingAfterInterface() { return ending }
      return try fail(error)
    }
    settings.finishConfirmRequest()
    if let ending = try endingAfterInterface() { return ending }
    guard let ending = result.ending else {
      try connection.send(.ok())
      return nil
    }
    let error = AssuanError(ending)
    if oneButton, error.code == .cancelled || error.code == .notConfirmed {
      try connection.send(.ok())
      return nil
    }
    return try fail(error)
  }

  /// Sends `S PIN_REPEATED` when asked, the passphrase as `D` lines, frees the
  /// passphrase, then sends `OK`.
  private func deliver(
    _ passphrase: consuming SecureBuffer, repeated: Bool
  ) throws(PinentryError) -> PinentryEnding? {
    if !passphrase.isEmpty {
      if repeated { try connection.send(.status("PIN_REPEATED")) }
      try connection.sendData(passphrase)
    }
    _ = consume passphrase
    try connection.send(.ok())
    return nil
  }

  /// Sends `error`; a full cancel also ends the session.
  private func fail(_ error: AssuanError) throws(PinentryError) -> PinentryEnding? {
    try connection.send(.error(error))
    return error.code == .fullyCancelled ? .fullyCancelled : nil
  }

  /// After the interface returns: throws what an inquiry met meanwhile, or
  /// ends the session when the client went away during one.
  private func endingAfterInterface() throws(PinentryError) -> PinentryEnding? {
    if let failure = connection.deferredFailure {
      connection.deferredFailure = nil
      throw failure
    }
    return connection.isAtEndOfInput ? .endOfInput : nil
  }
}
