import Glibc

/// What one ``SecureBuffer/read(from:maximumCount:timeout:)`` found.
public enum ReadOutcome: Sendable, Hashable {
  /// This many bytes were appended to the buffer (at least one).
  case bytes(Int)
  /// The descriptor reported end of file; nothing was appended.
  case endOfFile
  /// Nothing arrived before the timeout; nothing was appended.
  case timedOut
  /// A signal interrupted the wait; nothing was appended. Handle the signal, then
  /// read again.
  case interrupted
}

extension SecureBuffer {
  /// Appends what one `read(2)` on `descriptor` returns, straight into the
  /// buffer's spare capacity.
  ///
  /// Waits for readability with `poll` first, with the pages no-access, and opens
  /// a read-write window only around the `read` itself: a window is never held
  /// open across a wait. Grows (outside any window) to make room for
  /// `maximumCount` bytes first.
  ///
  /// - Parameters:
  ///   - descriptor: an open file descriptor, such as the terminal's.
  ///   - maximumCount: the most bytes to take in this read.
  ///   - timeout: how long to wait for input; nil waits without limit.
  /// - Throws: ``SecureMemoryError`` with code `readFailed` for an error from
  ///   `poll` or `read`, or from growing.
  public mutating func read(
    from descriptor: Int32, maximumCount: Int = 256, timeout: Duration? = nil
  ) throws(SecureMemoryError) -> ReadOutcome {
    precondition(maximumCount > 0, "SecureBuffer.read needs a positive maximumCount")
    if count + maximumCount > capacity { try grow(toAtLeast: count + maximumCount) }

    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&request, 1, timeout.map(Self.milliseconds) ?? -1)
    if ready < 0 {
      if Kernel.errno == EINTR { return .interrupted }
      throw .readFailed(errno: Kernel.errno)
    }
    if ready == 0 { return .timedOut }

    let offset = count
    let result = withWritableRegion { region in
      Glibc.read(descriptor, region.start + offset, maximumCount)
    }
    if result < 0 {
      switch Kernel.errno {
      case EINTR: return .interrupted
      case EAGAIN: return .timedOut
      default: throw .readFailed(errno: Kernel.errno)
      }
    }
    if result == 0 { return .endOfFile }
    count += result
    return .bytes(result)
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: max(0, total))
  }
}
