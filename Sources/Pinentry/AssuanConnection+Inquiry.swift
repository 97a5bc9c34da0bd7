package import SecureMemory

/// The client's answer to an `INQUIRE`.
package enum InquiryAnswer: ~Copyable {
  /// The data of the client's `D` lines, percent-decoded into secure memory,
  /// ended by `END`. Empty when the client sent `END` alone.
  case data(SecureBuffer)
  /// The client answered `CAN` (or `ERR`), sent more than the inquiry takes, or
  /// a line too long to read.
  case cancelled
  /// The client closed its end before it finished the answer.
  case endOfInput
  /// One of the descriptors the wait watched was readable, or its deadline
  /// passed, before the answer ended: the connection skips the rest of it
  /// before the next inquiry or command.
  case interrupted
}

extension AssuanConnection {
  /// Sends `INQUIRE <keyword> [<arguments>]` and reads the client's answer.
  ///
  /// While the answer is read, comment and empty lines are skipped; `END`
  /// ends it, `CAN` (and `ERR`) cancel it, and any other line (a command from
  /// a client that did not take the inquiry) fails it as cancelled, the line
  /// dropped, as libassuan's `assuan_inquire` fails with
  /// `GPG_ERR_ASS_UNEXPECTED_CMD`: a client that never answers cannot hold
  /// the pinentry.
  ///
  /// With `descriptors` (a terminal's keys, a signal relay's pipe), the wait
  /// for the answer also ends when one of them is readable first
  /// (``InquiryAnswer/interrupted``), so the caller can serve it; so it does
  /// at `deadline` (the prompt's timeout).
  ///
  /// - Parameters:
  ///   - keyword: the inquiry's keyword, such as `QUALITY`.
  ///   - arguments: text after the keyword; it must hold no line break.
  ///   - maximumDataCount: the most decoded bytes the answer may carry; a
  ///     longer answer is read to its end and reported as cancelled.
  ///   - descriptors: what else ends the wait when readable.
  ///   - deadline: when the wait ends anyway; nil for none.
  /// - Throws: ``PinentryError`` when reading or writing fails.
  package func inquire(
    _ keyword: String, arguments: String? = nil, maximumDataCount: Int = 4096,
    interruptedBy descriptors: [Int32] = [], until deadline: ContinuousClock.Instant? = nil
  ) throws(PinentryError) -> InquiryAnswer {
    guard try skipUnansweredInquiries(interruptedBy: descriptors, until: deadline) else {
      return .interrupted
    }
    try send(.inquire(keyword, arguments))
    return try readInquiryAnswer(
      maximumDataCount: maximumDataCount, interruptedBy: descriptors, until: deadline)
  }

  /// Sends `INQUIRE <keyword> <secret, plus-escaped>` and reads the client's
  /// answer, as pinentry's quality inquiry does.
  ///
  /// The line is built in secure memory, written, and wiped. `secretRange`
  /// selects the bytes to send; the escaped line must fit in
  /// ``AssuanLine/maximumLength`` bytes, so at most
  /// `(1000 - 10 - keyword.utf8.count) / 3` bytes can be sent.
  ///
  /// - Throws: ``PinentryError`` when reading or writing fails.
  package func inquire(
    _ keyword: String, secretArgument secret: borrowing SecureBuffer,
    range secretRange: Range<Int>? = nil, maximumDataCount: Int = 4096,
    interruptedBy descriptors: [Int32] = [], until deadline: ContinuousClock.Instant? = nil
  ) throws(PinentryError) -> InquiryAnswer {
    guard try skipUnansweredInquiries(interruptedBy: descriptors, until: deadline) else {
      return .interrupted
    }
    let range = secretRange ?? 0..<secret.count
    let head = Array("INQUIRE \(keyword) ".utf8)
    precondition(
      head.count + range.count * 3 + 1 <= AssuanLine.maximumLength,
      "AssuanConnection: \(range.count) secret bytes may not fit one INQUIRE line")
    precondition(
      range.lowerBound >= 0 && range.upperBound <= secret.count,
      "AssuanConnection: range \(range) out of bounds for count \(secret.count)")
    try write { buffer throws(SecureMemoryError) in
      try AssuanEscaping.append(head, to: &buffer)
      try secret.withUnsafeBytes { raw throws(SecureMemoryError) in
        try AssuanEscaping.appendPlusEscaped(
          UnsafeRawBufferPointer(rebasing: raw[range]), to: &buffer)
      }
      try AssuanEscaping.appendConstant("\n", to: &buffer)
    }
    return try readInquiryAnswer(
      maximumDataCount: maximumDataCount, interruptedBy: descriptors, until: deadline)
  }

  /// What one line of an inquiry answer does.
  private enum AnswerStep {
    case proceed, end, cancel
  }

  /// What `line` of an answer is: its end (`END`), a cancel (`CAN`, `ERR`, or
  /// another command), a line to skip (empty, a comment), or data (`D `).
  private static func step(of line: UnsafeRawBufferPointer) -> (AnswerStep, isData: Bool) {
    if hasKeyword("END", line) { return (.end, false) }
    if hasKeyword("CAN", line) || hasKeyword("ERR", line) { return (.cancel, false) }
    if line.isEmpty || line[0] == UInt8(ascii: "#") { return (.proceed, false) }
    guard line.count >= 2, line[0] == UInt8(ascii: "D"), line[1] == UInt8(ascii: " ") else {
      return (.cancel, false)
    }
    return (.proceed, true)
  }

  /// `line` without the CR a client may end it with.
  private static func withoutCarriageReturn(
    _ line: UnsafeRawBufferPointer
  ) -> UnsafeRawBufferPointer {
    line.last == UInt8(ascii: "\r") ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
  }

  /// Reads the rest of each answer a wait left unread (``unansweredInquiries``)
  /// and drops it; false when one of `descriptors` was readable first.
  func skipUnansweredInquiries(
    interruptedBy descriptors: [Int32], until deadline: ContinuousClock.Instant? = nil
  ) throws(PinentryError) -> Bool {
    while unansweredInquiries > 0 {
      let event = try withNextLine(interruptedBy: descriptors, until: deadline) { line -> Bool in
        Self.step(of: Self.withoutCarriageReturn(line)).0 != .proceed
      }
      switch event {
      case .line(true): unansweredInquiries -= 1
      case .line(false), .tooLong: continue
      case .endOfInput: unansweredInquiries = 0
      case .interrupted: return false
      }
    }
    return true
  }

  func readInquiryAnswer(
    maximumDataCount: Int, interruptedBy descriptors: [Int32] = [],
    until deadline: ContinuousClock.Instant? = nil
  ) throws(PinentryError) -> InquiryAnswer {
    var data: SecureBuffer
    do {
      data = try SecureBuffer(
        capacity: min(maximumDataCount, AssuanLine.maximumLength), storage: storage)
    } catch {
      throw .memory(error)
    }
    var isUsable = true
    while true {
      var memoryFailure: SecureMemoryError?
      let event = try withNextLine(interruptedBy: descriptors, until: deadline) {
        line -> AnswerStep in
        let line = Self.withoutCarriageReturn(line)
        let (step, isData) = Self.step(of: line)
        guard isData, isUsable else { return step }
        let escaped = UnsafeRawBufferPointer(rebasing: line[2...])
        // Decoding never grows data, so an escaped length within the limit
        // stays within it; past it, count exactly.
        let before = data.count
        do throws(SecureMemoryError) {
          try AssuanEscaping.appendPercentDecoded(escaped, to: &data)
        } catch {
          memoryFailure = error
          return .proceed
        }
        if data.count > maximumDataCount {
          data.removeSubrange(before..<data.count)
          isUsable = false
        }
        return .proceed
      }
      if let memoryFailure { throw .memory(memoryFailure) }
      switch event {
      case .line(.proceed): continue
      case .line(.end): return isUsable ? .data(data) : .cancelled
      case .line(.cancel): return .cancelled
      case .tooLong: isUsable = false
      case .endOfInput: return .endOfInput
      case .interrupted:
        unansweredInquiries += 1
        return .interrupted
      }
    }
  }

  /// True when `line` is `keyword` alone or `keyword` and a space, as pinentry
  /// recognises `END` and `CAN` in an inquiry answer.
  private static func hasKeyword(_ keyword: StaticString, _ line: UnsafeRawBufferPointer) -> Bool {
    let count = keyword.utf8CodeUnitCount
    guard line.count >= count else { return false }
    let matches = (0..<count).allSatisfy { line[$0] == keyword.utf8Start[$0] }
    return matches && (line.count == count || line[count] == UInt8(ascii: " "))
  }
}
