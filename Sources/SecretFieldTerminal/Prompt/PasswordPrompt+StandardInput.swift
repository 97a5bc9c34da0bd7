public import SecureMemory

extension PasswordPrompt {
  /// Reads one line from `descriptor` (standard input by default) straight into
  /// secure memory, for scripts that have no terminal: no prompt, no editing.
  ///
  /// A terminal is refused before anything is read: it would echo the password
  /// as it is typed. Ask on it with ``run(annotatingEdits:afterFirstDraw:withdrawal:reusing:)``.
  ///
  /// Reads one byte per `read(2)` (`SecureBuffer.read(from:maximumCount:timeout:)`),
  /// so nothing after the line is taken from a pipe or file that another
  /// reader shares. The line ends at LF; the LF (and a CR before it) is not part
  /// of the password. A last line without LF counts.
  ///
  /// - Parameters:
  ///   - descriptor: where to read.
  ///   - maximumCount: the most bytes the line may have (8 KiB, the field's
  ///     limit, by default).
  ///   - timeout: how long the whole line may take; nil waits without limit.
  ///   - storage: which memory holds the line; sodium memory by default (see
  ///     `SecureStorage`).
  /// - Returns: ``PromptResult/submitted(_:)`` with the line (possibly empty),
  ///   ``PromptResult/cancelled(_:)`` with ``PromptCancellation/endOfInput``
  ///   when the input ends before any byte, ``PromptResult/timedOut``.
  /// - Throws: ``PromptError`` with code `inputIsTerminal` when `descriptor`
  ///   is a terminal, `inputTooLong` for a longer line,
  ///   `readFailed` when reading fails, `secureMemoryFailed`. What was read is
  ///   wiped.
  /// - Complexity: one `poll`, one `read` and two `mprotect` pairs per byte.
  public static func readLine(
    from descriptor: Int32 = 0, maximumCount: Int = 8 * 1024, timeout: Duration? = nil,
    storage: SecureStorage = .sodium
  ) throws(PromptError) -> PromptResult {
    if Platform.isTerminal(descriptor) { throw .inputIsTerminal(descriptor: descriptor) }
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
        throw .standardInputFailed(errno: error.errno, error.description)
      }
      switch outcome {
      case .bytes:
        if line.withUnsafeBytes(Self.endsWithLineFeed) {
          line.removeSubrange((line.count - 1)..<line.count)
          if line.count > 0 && line.withUnsafeBytes(Self.endsWithCarriageReturn) {
            line.removeSubrange((line.count - 1)..<line.count)
          }
          return .submitted(line)
        }
        if line.count > maximumCount { throw .inputTooLong(limit: maximumCount) }
      case .endOfFile:
        return line.isEmpty ? .cancelled(.endOfInput) : .submitted(line)
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
