public import SecureMemory

/// Asks the client how good a passphrase is, while the user types it.
///
/// The session hands one to ``PinentryInterface/getPin(_:quality:)`` when the
/// client asked for a quality bar (`SETQUALITYBAR`). The interface calls
/// ``estimate(_:interruptedBy:until:)`` with the field's buffer whenever it
/// wants a new value (after an edit, say); the call sends `INQUIRE QUALITY <plus-escaped passphrase>` on
/// the session's connection and waits for the client's `D <number>` and `END`.
/// It runs on the interface's thread, inside `getPin`: the session is waiting
/// for `getPin` to return and reads nothing meanwhile, so the answer cannot be
/// taken for a command. Given the terminal's and the signal relay's
/// descriptors, the wait ends when a key or a signal comes first: the answer
/// is then skipped when it comes, before the next inquiry or command.
///
/// Only valid during the `getPin` call it was handed to: calling it afterwards
/// is a programmer error and traps, since the client expects no inquiry then.
public struct PassphraseQuality {
  let connection: AssuanConnection
  let generation: Int

  /// The most passphrase bytes sent, as pinentry limits them, so the escaped
  /// line fits one Assuan line.
  public static let maximumPassphraseCount = 300

  init(connection: AssuanConnection) {
    self.connection = connection
    self.generation = connection.pinRequestGeneration
  }

  /// The client's estimate of `passphrase`, from -100 (refused) to 100, or nil
  /// when there is none: the client cancelled the inquiry, answered without
  /// a number or with another command, one of `descriptors` was readable
  /// before the answer came (a key or a signal to serve) or `deadline` passed
  /// (the prompt's timeout), or the connection failed (the session reports
  /// that when `getPin` returns).
  ///
  /// Sends at most the first ``maximumPassphraseCount`` bytes, cut back to the
  /// start of a UTF-8 sequence. The inquiry line is built in secure memory and
  /// wiped once written.
  ///
  /// - Complexity: one round trip to the client.
  public func estimate(
    _ passphrase: borrowing SecureBuffer, interruptedBy descriptors: [Int32] = [],
    until deadline: ContinuousClock.Instant? = nil
  ) -> Int? {
    precondition(
      connection.isServingPinRequest && connection.pinRequestGeneration == generation,
      "PassphraseQuality: estimate called outside the GETPIN it was handed to")
    guard connection.deferredFailure == nil, !connection.isAtEndOfInput else { return nil }
    let count = Self.sendableCount(of: passphrase)
    do {
      let answer = try connection.inquire(
        "QUALITY", secretArgument: passphrase, range: 0..<count, interruptedBy: descriptors,
        until: deadline)
      switch consume answer {
      case .data(let data): return Self.score(in: data)
      case .cancelled: return nil
      case .endOfInput: return nil
      case .interrupted: return nil
      }
    } catch {
      connection.deferredFailure = error
      return nil
    }
  }

  /// How many leading bytes to send: all, or ``maximumPassphraseCount`` cut
  /// back so no UTF-8 sequence is split.
  static func sendableCount(of passphrase: borrowing SecureBuffer) -> Int {
    guard passphrase.count > maximumPassphraseCount else { return passphrase.count }
    defer { wipeStack(byteCount: 1024) }
    return passphrase.withUnsafeBytes { bytes in
      var end = maximumPassphraseCount
      // At most three continuation bytes precede a sequence's end.
      while end > maximumPassphraseCount - 3 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
      return end
    }
  }

  /// The decimal number at the start of the answer (an optional sign and
  /// digits, as `atoi` reads it), clamped to -100...100.
  static func score(in data: borrowing SecureBuffer) -> Int? {
    data.withUnsafeBytes { bytes in
      var index = 0
      while index < bytes.count && AssuanLine.isBlank(bytes[index]) { index += 1 }
      var sign = 1
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+"))
      {
        if bytes[index] == UInt8(ascii: "-") { sign = -1 }
        index += 1
      }
      var value = 0
      var digits = 0
      while index < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
      {
        value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1000)
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      return max(-100, min(100, sign * value))
    }
  }
}
