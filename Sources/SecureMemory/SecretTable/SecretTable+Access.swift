import Synchronization

extension SecretTable {
  /// Lends the secret under `key` to `body` inside a read window; nil when
  /// there is none.
  ///
  /// Do not let the bytes escape `body`, and keep it short: it runs under the
  /// table's lock.
  public func withSecret<Result, Failure: Error>(
    for key: Key, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    // Kept outside the lock's closure: what `body` returns need not be
    // Sendable, and it never leaves this thread.
    var outcome: Swift.Result<Result, Failure>?
    entries.withLock { entries in
      guard let entry = entries[key] else { return }
      outcome = entry.secret.withUnsafeBytes { bytes in
        do throws(Failure) { return .success(try body(bytes)) } catch { return .failure(error) }
      }
    }
    return try outcome?.get()
  }

  /// A copy of the secret under `key` in a buffer of its own (to hand to a
  /// child, or to keep past a removal); nil when there is none.
  ///
  /// - Throws: ``SecureMemoryError`` when the copy's buffer cannot be had.
  public func copySecret(
    for key: Key, storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) -> SecureBuffer? {
    let outcome: Swift.Result<SecureBuffer, SecureMemoryError>? = entries.withLock { entries in
      guard let entry = entries[key] else { return nil }
      do throws(SecureMemoryError) {
        var copy = try SecureBuffer(capacity: entry.secret.count, storage: storage)
        try copy.append(contentsOf: entry.secret)
        return .success(copy)
      } catch {
        return .failure(error)
      }
    }
    guard let outcome else { return nil }
    return try outcome.get()
  }

  /// Whether the secret under `key` is `candidate`, compared in constant time
  /// (`sodium_memcmp`); nil when there is no secret under `key`.
  ///
  /// - Complexity: a protection pair on `candidate` and one on the secret's
  ///   page. To check one candidate against many names, hold its window open
  ///   and call ``constantTimeEquals(bytes:for:)`` inside it: one pair each.
  public func constantTimeEquals(_ candidate: borrowing SecureBuffer, for key: Key) -> Bool? {
    candidate.withUnsafeBytes { constantTimeEquals(bytes: $0, for: key) }
  }

  /// Whether the secret under `key` is `bytes` (a window the caller holds
  /// open on a candidate), compared in constant time; nil when there is no
  /// secret under `key`.
  ///
  /// The hot path for a candidate checked against many entries:
  ///
  /// ```swift
  /// let matching = candidate.withUnsafeBytes { typed in
  ///   accounts.filter { table.constantTimeEquals(bytes: typed, for: $0) == true }
  /// }
  /// ```
  ///
  /// - Complexity: one protection pair on the secret's page.
  public func constantTimeEquals(bytes: UnsafeRawBufferPointer, for key: Key) -> Bool? {
    entries.withLock { entries in
      entries[key].map { $0.secret.constantTimeEquals(bytes: bytes) }
    }
  }
}
