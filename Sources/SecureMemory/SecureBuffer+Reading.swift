import Glibc
import SystemCalls

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

extension ReadOutcome {
  /// What one `read(2)` that returned `result` found: `errno` (read right
  /// after it) names the failure when `result` is negative, `EINTR` and
  /// `EAGAIN` being outcomes, not errors.
  ///
  /// - Throws: ``SecureMemoryError`` with code `readFailed` for another errno.
  init(readReturning result: Int, errno: Int32) throws(SecureMemoryError) {
    switch result {
    case ..<0:
      switch errno {
      case EINTR: self = .interrupted
      case EAGAIN: self = .timedOut
      default: throw .readFailed(errno: errno)
      }
    case 0: self = .endOfFile
    default: self = .bytes(result)
    }
  }
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
    let ready = poll(&request, 1, timeout.map(System.pollTimeout) ?? -1)
    if ready < 0 {
      if Kernel.errno == EINTR { return .interrupted }
      throw .readFailed(errno: Kernel.errno)
    }
    if ready == 0 { return .timedOut }

    let offset = count
    let window = try openWrite(touching: offset + maximumCount)
    let result = Glibc.read(descriptor, window.start + offset, maximumCount)
    let errno = Kernel.errno
    closeWrite(window, count: offset + max(0, result))
    return try ReadOutcome(readReturning: result, errno: errno)
  }

  /// Appends what one `read(2)` on `descriptor` returns, as
  /// ``read(from:maximumCount:timeout:)`` does, and then, in the same
  /// read-write window, lends every byte to `body` to remove a prefix (as
  /// ``withUnsafeBytesRemovingPrefix(_:)`` does).
  ///
  /// For input that is used as soon as it arrives: the `read` and the use share
  /// one protection pair. `body` runs only when bytes arrived (the outcome is
  /// ``ReadOutcome/bytes(_:)``); its result is nil otherwise.
  ///
  /// - Throws: ``AppendError/memory(_:)`` with code `readFailed` for an error
  ///   from `poll` or `read`, or from growing; ``AppendError/body(_:)`` with
  ///   what `body` throws (the bytes arrived; what it removed is removed).
  package mutating func read<Result, Failure: Error>(
    from descriptor: Int32, maximumCount: Int = 256, timeout: Duration? = nil,
    thenRemovingPrefix body: (_ bytes: UnsafeRawBufferPointer, _ removing: inout Int)
      throws(Failure) -> Result
  ) throws(AppendError<Failure>) -> (outcome: ReadOutcome, result: Result?) {
    precondition(maximumCount > 0, "SecureBuffer.read needs a positive maximumCount")
    if count + maximumCount > capacity {
      do { try grow(toAtLeast: count + maximumCount) } catch { throw .memory(error) }
    }
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&request, 1, timeout.map(System.pollTimeout) ?? -1)
    if ready < 0 {
      if Kernel.errno == EINTR { return (.interrupted, nil) }
      throw .memory(.readFailed(errno: Kernel.errno))
    }
    if ready == 0 { return (.timedOut, nil) }

    var returned = 0
    var failure: Int32 = 0
    let result = try append(
      atMost: maximumCount,
      receivingWith: { spare in
        returned = Glibc.read(descriptor, spare.baseAddress!, maximumCount)
        if returned < 0 { failure = Kernel.errno }
        return returned
      },
      thenRemovingPrefix: body)
    let outcome: ReadOutcome
    do { outcome = try ReadOutcome(readReturning: returned, errno: failure) } catch {
      throw .memory(error)
    }
    guard case .bytes = outcome else { return (outcome, nil) }
    return (outcome, result)
  }

  /// Appends what one `read(2)` on `descriptor` returns and lends the bytes
  /// to `body` in the same window; `body` returns how many bytes to remove
  /// from the front.
  ///
  /// Not generic, so a caller in another module runs code specialised here:
  /// a generic form, called across a module boundary, looks up its type
  /// metadata at run time on every call, which a key's echo paid for (cold,
  /// after the idle wait between keys). A caller keeps what `body` found in a
  /// variable of its own.
  ///
  /// - Throws: ``SecureMemoryError`` with code `readFailed` for an error from
  ///   `poll` or `read`, or from growing.
  public mutating func read(
    from descriptor: Int32, maximumCount: Int = 256, timeout: Duration? = nil,
    thenConsuming body: (_ bytes: UnsafeRawBufferPointer) -> Int
  ) throws(SecureMemoryError) -> ReadOutcome {
    do {
      return try read(from: descriptor, maximumCount: maximumCount, timeout: timeout) {
        (bytes: UnsafeRawBufferPointer, removing: inout Int) throws(Never) in
        removing = body(bytes)
      }.outcome
    } catch {
      switch error {
      case .memory(let failure): throw failure
      }
    }
  }
}

/// What one ``SecureBuffer/read(from:upTo:)`` found.
public enum ReadToEndOutcome: Sendable, Hashable {
  /// The descriptor reported end of file: everything it had is in the buffer.
  case endOfFile
  /// The limit was reached before end of file; more may follow.
  case limitReached
}

extension SecureBuffer {
  /// Appends what `descriptor` holds until end of file, or until `limit` bytes
  /// were appended, straight into the buffer's spare capacity.
  ///
  /// For a file or a pipe whose whole content is the secret. Blocks in
  /// `read(2)` (no `poll`, no timeout; retries `EINTR`), a read-write window
  /// open only around each `read`. Grows geometrically as the bytes arrive,
  /// never past `limit`.
  ///
  /// To learn whether a source is longer than `n` bytes, read up to `n + 1`.
  ///
  /// - Throws: ``SecureMemoryError`` with code `readFailed` for an error from
  ///   `read`, or from growing; what was appended stays in the buffer.
  @discardableResult
  public mutating func read(
    from descriptor: Int32, upTo limit: Int
  ) throws(SecureMemoryError) -> ReadToEndOutcome {
    precondition(limit >= 0, "SecureBuffer.read(from:upTo:) needs a limit of 0 or more")
    let end = count + limit
    while count < end {
      if count == capacity { try grow(toAtLeast: min(end, max(count + 256, capacity * 2))) }
      let offset = count
      let room = min(capacity, end) - offset
      let window = try openWrite(touching: offset + room)
      let result = Glibc.read(descriptor, window.start + offset, room)
      let errno = Kernel.errno
      closeWrite(window, count: offset + max(0, result))
      if result < 0 {
        if errno == EINTR { continue }
        throw .readFailed(errno: errno)
      }
      if result == 0 { return .endOfFile }
    }
    return .limitReached
  }
}
