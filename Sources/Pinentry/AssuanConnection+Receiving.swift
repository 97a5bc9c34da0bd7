import SecureMemory

/// What the client sent next.
public enum AssuanInput: Sendable, Hashable {
  /// A request line.
  case line(AssuanLine)
  /// A line that cannot be served, to be answered with this error: one over
  /// ``AssuanLine/maximumLength`` bytes, or one starting with white space.
  case invalid(AssuanError)
  /// The client closed its end; an unfinished last line is dropped.
  case endOfInput
}

/// One step of reading: a whole line, or the end of one that was too long.
enum LineEvent<Result: ~Copyable>: ~Copyable {
  case line(Result)
  case tooLong
  case endOfInput
}

extension AssuanConnection {
  /// Reads the next request line, waiting for the client as long as it takes.
  ///
  /// A line over ``AssuanLine/maximumLength`` bytes is read to its LF and
  /// thrown away, its bytes wiped, and reported as ``AssuanInput/invalid(_:)``
  /// once: the client gets one answer for it and the connection stays usable.
  ///
  /// - Throws: ``PinentryError`` when `read(2)` fails.
  public func receive() throws(PinentryError) -> AssuanInput {
    let event = try withNextLine { line in
      Result { () throws(AssuanError) in try AssuanLine(parsing: line) }
    }
    switch consume event {
    case .line(.success(let line)): return .line(line)
    case .line(.failure(let error)): return .invalid(error)
    case .tooLong: return .invalid(.lineTooLong)
    case .endOfInput: return .endOfInput
    }
  }

  /// Calls `body` with the next whole line, without its LF, from inside the
  /// incoming buffer's read window, then removes the line from the buffer.
  func withNextLine<Result: ~Copyable>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(PinentryError) -> LineEvent<Result> {
    while true {
      let lineFeed = incoming.withUnsafeBytes { $0.firstIndex(of: UInt8(ascii: "\n")) }
      if let lineFeed {
        defer { incoming.removeSubrange(0..<(lineFeed + 1)) }
        if isDiscardingLine || lineFeed > AssuanLine.maximumLength {
          isDiscardingLine = false
          return .tooLong
        }
        return .line(
          incoming.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<lineFeed])) })
      }
      if isDiscardingLine || incoming.count > AssuanLine.maximumLength {
        // No LF within the limit: the line is too long whatever follows. Keep
        // nothing of it while the rest arrives.
        isDiscardingLine = true
        incoming.removeAll()
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
}
