import SystemCalls

extension SecureBuffer {
  /// Writes the bytes in `range` (all of them by default) to `descriptor` with
  /// `write(2)`, from inside a read window: the secret goes from secure memory to
  /// the kernel with no copy in between.
  ///
  /// Retries short writes and `EINTR` until every byte is written.
  ///
  /// Never raises `SIGPIPE`: a reader that went away is reported as `EPIPE`,
  /// whatever the process does with the signal. The signal is blocked for the
  /// calling thread around the `write` calls (`pthread_sigmask`), and a
  /// `SIGPIPE` they caused is taken off the pending set (`sigtimedwait`)
  /// before it is unblocked; one that was already pending stays. That costs
  /// three system calls per call, none per retry.
  ///
  /// - Throws: ``SecureMemoryError`` with code `writeFailed` and the `errno`
  ///   (`EPIPE` when the reading end is closed); for a sealed buffer whose
  ///   ciphertext fails authentication, code `sealedSecretAltered`, and
  ///   nothing is written.
  public func write(to descriptor: Int32, range: Range<Int>? = nil) throws(SecureMemoryError) {
    let range = checkedRange(range)
    let window = try openRead()
    let bytes = UnsafeRawBufferPointer(start: window.start, count: count)
    let failure = System.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes[range]))
    closeRead(window)
    if let failure { throw .writeFailed(errno: failure.code) }
  }
}
