import SecureMemory
import SystemCalls

/// What the client sent next.
package enum AssuanInput: Sendable, Hashable {
  /// A request line.
  case line(AssuanLine)
  /// A line that cannot be served, to be answered with this error: one over
  /// ``AssuanLine/maximumLength`` bytes, or one starting with white space.
  case invalid(AssuanError)
  /// The client closed its end; an unfinished last line is dropped.
  case endOfInput
}

/// One step of reading: a whole line, or the end of one that was too long.
enum LineEvent<Result> {
  case line(Result)
  case tooLong
  case endOfInput
  /// One of the other descriptors the wait watched was readable before a
  /// whole line came.
  case interrupted
}

extension AssuanConnection {
  /// Reads the next request line, waiting for the client as long as it takes.
  ///
  /// A line over ``AssuanLine/maximumLength`` bytes is read to its LF and
  /// thrown away, its bytes wiped, and reported as ``AssuanInput/invalid(_:)``
  /// once: the client gets one answer for it and the connection stays usable.
  ///
  /// - Throws: ``PinentryError`` when `read(2)` fails.
  package func receive() throws(PinentryError) -> AssuanInput {
    // The rest of an answer a wait left unread is no request.
    _ = try skipUnansweredInquiries(interruptedBy: [])
    let event = try withNextLine { line in
      Result { () throws(AssuanError) in try AssuanLine(parsing: line) }
    }
    switch event {
    case .line(.success(let line)): return .line(line)
    case .line(.failure(let error)): return .invalid(error)
    case .tooLong: return .invalid(.lineTooLong)
    case .endOfInput: return .endOfInput
    case .interrupted: preconditionFailure("AssuanConnection: receive watches nothing else")
    }
  }

  /// Calls `body` with the next whole line, without its LF, from inside the
  /// incoming buffer's window, and removes the line in the same window.
  /// With `descriptors` or `deadline`, a wait for input is one `poll(2)` on
  /// the input and them, and ends (`.interrupted`) when one of them is
  /// readable first or the deadline passes.
  ///
  /// - Complexity: two `mprotect` calls per line, and two per `read(2)` when
  ///   no whole line is buffered.
  func withNextLine<Result>(
    interruptedBy descriptors: [Int32] = [], until deadline: ContinuousClock.Instant? = nil,
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(PinentryError) -> LineEvent<Result> {
    while true {
      if !incoming.isEmpty, let event = nextBufferedLine(body) { return event }
      // A failed poll falls through to the read, which reports it.
      if !descriptors.isEmpty || deadline != nil,
        case .success(let ready) = System.waitReadable([input] + descriptors, until: deadline),
        !ready[0]
      {
        return .interrupted
      }
      let outcome: ReadOutcome
      do {
        outcome = try incoming.read(from: input, maximumCount: Self.readSize)
      } catch {
        throw .read(error)
      }
      if outcome == .endOfFile {
        incoming.removeAll()
        isDiscardingLine = false
        isAtEndOfInput = true
        return .endOfInput
      }
    }
  }

  /// The line at the front of the incoming buffer, handed to `body` and
  /// removed in one window; nil when no LF has arrived yet.
  ///
  /// Without an LF, what is buffered past ``AssuanLine/maximumLength`` bytes is
  /// the start of a line too long whatever follows: it is removed, and so is
  /// the rest of that line as it arrives.
  private func nextBufferedLine<Result>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) -> LineEvent<Result>? {
    let event: LineEvent<Result>?? = incoming.withUnsafeBytesRemovingPrefix { bytes, removing in
      guard let lineFeed = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
        if isDiscardingLine || bytes.count > AssuanLine.maximumLength {
          isDiscardingLine = true
          removing = bytes.count
        }
        return nil
      }
      removing = lineFeed + 1
      if isDiscardingLine || lineFeed > AssuanLine.maximumLength {
        isDiscardingLine = false
        return .tooLong
      }
      return .line(body(UnsafeRawBufferPointer(rebasing: bytes[..<lineFeed])))
    }
    return event ?? nil
  }
}
