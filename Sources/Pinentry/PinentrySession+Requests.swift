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
      let entry = interface.getPin(
        settings.pinRequest(stage: .passphrase, error: error), quality: quality)
      if let ending = try endingAfterInterface() { return ending }
      let passphrase: SecureBuffer
      switch consume entry {
      case .entered(let entered): passphrase = entered
      case .cancelled: return try fail(.cancelled)
      case .timedOut: return try fail(.timeout)
      case .fullyCancelled: return try fail(.fullyCancelled)
      case .failed(let failure): return try fail(failure)
      }
      guard settings.repeatPrompt != nil else {
        return try deliver(passphrase, repeated: false)
      }
      let second = interface.getPin(
        settings.pinRequest(stage: .repetition, error: nil), quality: nil)
      if let ending = try endingAfterInterface() { return ending }
      switch consume second {
      case .entered(let repetition):
        if passphrase.constantTimeEquals(repetition) {
          return try deliver(passphrase, repeated: true)
        }
        error = settings.repeatError ?? PinentrySettings.defaultRepeatError
      case .cancelled: return try fail(.cancelled)
      case .timedOut: return try fail(.timeout)
      case .fullyCancelled: return try fail(.fullyCancelled)
      case .failed(let failure): return try fail(failure)
      }
    }
  }

  /// Serves `CONFIRM`, `CONFIRM --one-button` and `MESSAGE`.
  ///
  /// A message (one button) answers `OK` however the user closed it, unless
  /// the time ran out, the user pressed Ctrl-C, or the interface failed, as
  /// pinentry answers it.
  mutating func confirm(oneButton: Bool) throws(PinentryError) -> PinentryEnding? {
    let result = interface.confirm(settings.confirmRequest(oneButton: oneButton))
    settings.finishConfirmRequest()
    if let ending = try endingAfterInterface() { return ending }
    switch result {
    case .confirmed:
      try connection.send(.ok())
    case .declined:
      try connection.send(oneButton ? .ok() : .error(.notConfirmed))
    case .cancelled:
      try connection.send(oneButton ? .ok() : .error(.cancelled))
    case .timedOut:
      return try fail(.timeout)
    case .fullyCancelled:
      return try fail(.fullyCancelled)
    case .failed(let failure):
      return try fail(failure)
    }
    return nil
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
