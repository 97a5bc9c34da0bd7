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
  /// - Complexity: one `poll`, one `read` and two `mprotect` pairs per byte.
  static func readLine(
    from descriptor: Int32, named what: String, maximumCount: Int, timeout: Duration?,
    storage: SecureStorage
  ) throws(SecretSourceError) -> LineOutcome {
    if System.isTerminal(descriptor) { throw .isTerminal(what) }
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

  @inline(never)
  static func endsWithLineFeed(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.last == 0x0A
  }

  @inline(never)
  static func endsWithCarriageReturn(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.last == 0x0D
  }
}
