import SecureMemory
import SystemCalls

extension SecretSource {
  /// How reading a line from a descriptor ended.
  enum LineOutcome: ~Copyable {
    /// A line (possibly empty), without its LF and a CR before it; a last line
    /// without LF counts.
    case line(SecureBuffer)
    /// The input ended before any byte.
    case endOfInput
    /// The timeout ran out first.
    case timedOut
  }

  /// Reads one line from `descriptor` straight into secure memory, one byte
  /// per `read(2)` (`SecureBuffer.read(from:maximumCount:timeout:)`), so
  /// nothing after the line is taken from a pipe or file that another reader
  /// shares. What was read is wiped on any failure.
  ///
  /// A socket that keeps message boundaries (a datagram or seqpacket socket)
  /// is read one whole message at a time instead: there each `read(2)` takes
  /// a message and drops what does not fit, so a byte at a time would keep
  /// one byte of each (``readMessageLine(from:named:maximumCount:timeout:storage:)``).
  ///
  /// - Complexity: one `poll`, one `read` and two `mprotect` pairs per byte.
  static func readLine(
    from descriptor: Int32, named what: String, maximumCount: Int, timeout: Duration?,
    storage: SecureStorage
  ) throws(SecretSourceError) -> LineOutcome {
    if System.isTerminal(descriptor) { throw .isTerminal(what) }
    if SourceSystem.isMessageSocket(descriptor) {
      return try readMessageLine(
        from: descriptor, named: what, maximumCount: maximumCount, timeout: timeout,
        storage: storage)
    }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var line: SecureBuffer
    do { line = try SecureBuffer(capacity: 256, storage: storage) } catch {
      throw .secureMemory(error)
    }
    defer { wipeStack(byteCount: 1024) }
    while true {
      let left = deadline.map { max(.zero, $0 - .now) }
      let outcome: ReadOutcome
      do {
        outcome = try line.read(from: descriptor, maximumCount: 1, timeout: left)
      } catch {
        throw .readFailed(what, error)
      }
      switch outcome {
      case .bytes:
        if line.withUnsafeBytes(Self.endsWithLineFeed) {
          line.removeSubrange((line.count - 1)..<line.count)
          if line.count > 0 && line.withUnsafeBytes(Self.endsWithCarriageReturn) {
            line.removeSubrange((line.count - 1)..<line.count)
          }
          return .line(line)
        }
        if line.count > maximumCount { throw .tooLong(what, limit: maximumCount) }
      case .endOfFile:
        return line.isEmpty ? .endOfInput : .line(line)
      case .timedOut:
        if let deadline, ContinuousClock.now >= deadline { return .timedOut }
      case .interrupted:
        continue
      }
    }
  }

  /// The line in the next message on a datagram or seqpacket socket: the
  /// message is read whole (room for `maximumCount` bytes, a CR and an LF),
  /// its first line kept and the rest of it wiped; a message without a line
  /// feed is the line. A message longer than that room is cut by the kernel,
  /// so what fills it without a line feed is too long.
  static func readMessageLine(
    from descriptor: Int32, named what: String, maximumCount: Int, timeout: Duration?,
    storage: SecureStorage
  ) throws(SecretSourceError) -> LineOutcome {
    let room = maximumCount + 2
    var line: SecureBuffer
    do { line = try SecureBuffer(capacity: room, storage: storage) } catch {
      throw .secureMemory(error)
    }
    defer { wipeStack(byteCount: 1024) }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      let left = deadline.map { max(.zero, $0 - .now) }
      let outcome: ReadOutcome
      do { outcome = try line.read(from: descriptor, maximumCount: room, timeout: left) } catch {
        throw .readFailed(what, error)
      }
      switch outcome {
      case .bytes:
        if line.withUnsafeBytes(Self.firstLineFeed) != nil {
          try keepFirstLine(of: &line, named: what, limit: maximumCount, allowsEmpty: true)
          return .line(line)
        }
        if line.count > maximumCount { throw .tooLong(what, limit: maximumCount) }
        if line.count > 0 && line.withUnsafeBytes(Self.endsWithCarriageReturn) {
          line.removeSubrange((line.count - 1)..<line.count)
        }
        return .line(line)
      case .endOfFile:
        return .endOfInput
      case .timedOut:
        if let deadline, ContinuousClock.now >= deadline { return .timedOut }
      case .interrupted:
        continue
      }
    }
  }

  @inline(never)
  static func endsWithLineFeed(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.last == 0x0A
  }

  @inline(never)
  static func endsWithCarriageReturn(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.last == 0x0D
  }
}
