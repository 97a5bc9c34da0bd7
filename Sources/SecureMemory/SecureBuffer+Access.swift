extension SecureBuffer {
  /// Calls `body` with read-only access to the buffer's bytes.
  ///
  /// The pages are readable only while `body` runs; keeping the pointer past it
  /// and reading through it faults. Windows nest, and readers on several threads
  /// share one window: the pages become no-access again when the last one leaves.
  ///
  /// A sealed buffer (``SecureStorage/sealed``) lends its bytes decrypted into
  /// a scratch slot of the calling thread, wiped when `body` returns; nested
  /// windows take a slot each. When its ciphertext fails authentication
  /// (changed in memory), `body` is not called and the window throws
  /// ``SecureMemoryError`` with code
  /// `SecureMemoryError.Code.sealedSecretAltered` where `Failure` can hold
  /// it (`SecureMemoryError`, or `any Error` for a plain `throws` body); a
  /// `body` that throws nothing else cannot hear it, and the process ends
  /// with that message instead.
  ///
  /// - Complexity: two `mprotect` calls for the outermost window, none for a
  ///   nested one; for a sealed buffer one decryption of ``count`` bytes and
  ///   no system call.
  public func withUnsafeBytes<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let window: BufferWindow
    do { window = try openRead() } catch { throw Self.reported(error, as: Failure.self) }
    defer { closeRead(window) }
    return try body(UnsafeRawBufferPointer(start: window.start, count: count))
  }

  /// Calls `body` with read-write access to the buffer's bytes.
  ///
  /// The window covers ``count`` bytes; to change the count, use the editing
  /// methods. The pages are no-access again as soon as `body` returns or throws.
  /// A sealed buffer's bytes are sealed again under a new nonce when `body`
  /// returns or throws; a failed authentication is reported as
  /// ``withUnsafeBytes(_:)`` reports it.
  ///
  /// - Complexity: two `mprotect` calls; for a sealed buffer a decryption
  ///   and an encryption of ``count`` bytes.
  public mutating func withUnsafeMutableBytes<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let window: BufferWindow
    do { window = try openWrite(touching: count) } catch {
      throw Self.reported(error, as: Failure.self)
    }
    let oldCount = count
    defer { closeWrite(window, count: oldCount) }
    return try body(UnsafeMutableRawBufferPointer(start: window.start, count: oldCount))
  }

  /// A window's failure (a sealed buffer's authentication, the thread's
  /// scratch) as the error a caller's `body` may throw: itself where
  /// `Failure` can hold it, else the end of the process with its message.
  static func reported<Failure: Error>(
    _ error: SecureMemoryError, as _: Failure.Type
  ) -> Failure {
    if let failure = error as? Failure { return failure }
    fatalError("SecureBuffer: \(error.description)")
  }
}
