import Glibc

extension System {
  /// Writes every byte of `bytes` to `descriptor`, retrying short writes and
  /// `EINTR`, and waiting (`poll(2)` for `POLLOUT`) when a non-blocking
  /// descriptor is full (`EAGAIN`), as a blocking write would: a terminal
  /// whose emulator reads slowly gets the whole frame, a pipe the whole
  /// secret.
  ///
  /// With `blockingPipeSignal` (the default), a reader that went away is an
  /// error the caller sees (``Errno/brokenPipe``), never the end of the
  /// process: `SIGPIPE` is blocked for this thread around the writes and one
  /// they caused is taken back (``withPipeSignalBlocked(_:)``). Pass false for
  /// a terminal, which raises no `SIGPIPE`, to save the four signal-mask calls.
  ///
  /// - Returns: nil when every byte was written, else the `errno` of the write
  ///   that failed.
  package static func writeAll(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, blockingPipeSignal: Bool = true
  ) -> Errno? {
    guard blockingPipeSignal else { return writeEvery(descriptor, bytes) }
    return withPipeSignalBlocked { writeEvery(descriptor, bytes) }
  }

  private static func writeEvery(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
    guard let start = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, start + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          while poll(&ready, 1, -1) < 0 && errno == EINTR {}
          continue
        }
        return .current
      }
      offset += written
    }
    return nil
  }

  /// Runs `body` with `SIGPIPE` blocked for this thread, so a write to a pipe
  /// nobody reads fails with `EPIPE` instead of ending the process.
  ///
  /// A `SIGPIPE` that `body` caused stays pending while blocked; it is taken
  /// off with a zero-timeout `sigtimedwait` before the old mask comes back,
  /// unless one was pending already (that one belongs to someone else). The
  /// signal is thread-directed for a write, so no other thread can take it.
  package static func withPipeSignalBlocked<Result>(_ body: () -> Result) -> Result {
    var pipeOnly = sigset_t()
    sigemptyset(&pipeOnly)
    sigaddset(&pipeOnly, SIGPIPE)
    var previous = sigset_t()
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
    let result = body()
    if !wasPending {
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&pipeOnly, nil, &now) < 0 && errno == EINTR {}
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    return result
  }
}
