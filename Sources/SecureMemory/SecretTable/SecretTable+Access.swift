public import Synchronization

extension SecretTable {
  /// Lends the secret under `key` to `body` inside a read window; nil when
  /// there is none.
  ///
  /// Do not let the bytes escape `body`, and keep it short: it runs under the
  /// lock of the key's shard. A sealed secret whose ciphertext fails
  /// authentication is reported as ``SecureBuffer/withUnsafeBytes(_:)``
  /// reports it: thrown where `Failure` can hold a ``SecureMemoryError``.
  @inlinable public func withSecret<Result, Failure: Error>(
    for key: Key, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    // Kept outside the lock's closure: what `body` returns need not be
    // Sendable, and it never leaves this thread.
    var outcome: Swift.Result<Result, Failure>?
    shard(for: key).entries.withLock { entries in
      guard let stored = entries[key] else { return }
      do throws(Failure) {
        outcome = .success(try stored.entry.takeUnretainedValue().secret.withUnsafeBytes(body))
      } catch {
        outcome = .failure(error)
      }
    }
    return try outcome?.get()
  }

  /// A copy of the secret under `key` in a buffer of its own (to hand to a
  /// child, or to keep past a removal); nil when there is none.
  ///
  /// - Throws: ``SecureMemoryError`` when the copy's buffer cannot be had, or
  ///   the secret is sealed and fails authentication.
  public func copySecret(
    for key: Key, storage: SecureStorage = .sealed
  ) throws(SecureMemoryError) -> SecureBuffer? {
    let outcome: Swift.Result<SecureBuffer, SecureMemoryError>? = shard(for: key).entries.withLock {
      entries in
      guard let stored = entries[key] else { return nil }
      let entry = stored.entry.takeUnretainedValue()
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
  /// - Complexity: a window on `candidate` and one on the secret. To check
  ///   one candidate against many names, hold its window open and call
  ///   ``constantTimeEquals(bytes:for:)`` inside it.
  /// - Throws: ``SecureMemoryError`` with code
  ///   `SecureMemoryError.Code.sealedSecretAltered` when the stored secret
  ///   or `candidate` is sealed and fails authentication.
  @inlinable public func constantTimeEquals(
    _ candidate: borrowing SecureBuffer, for key: Key
  ) throws(SecureMemoryError) -> Bool? {
    try candidate.withUnsafeBytes { bytes throws(SecureMemoryError) in
      try constantTimeEquals(bytes: bytes, for: key)
    }
  }

  /// Whether the secret under `key` is `bytes` (a window the caller holds
  /// open on a candidate), compared in constant time; nil when there is no
  /// secret under `key`.
  ///
  /// The hot path for a candidate checked against many entries:
  ///
  /// ```swift
  /// let matching = try candidate.withUnsafeBytes { typed in
  ///   try accounts.filter { try table.constantTimeEquals(bytes: typed, for: $0) == true }
  /// }
  /// ```
  ///
  /// - Complexity: one decryption of the secret (sealed) or one protection
  ///   pair on its page (guarded).
  /// - Throws: ``SecureMemoryError`` with code
  ///   `SecureMemoryError.Code.sealedSecretAltered` when the stored secret
  ///   is sealed and fails authentication.
  @inlinable public func constantTimeEquals(
    bytes: UnsafeRawBufferPointer, for key: Key
  ) throws(SecureMemoryError) -> Bool? {
    try shard(for: key).entries.withLock { entries throws(SecureMemoryError) -> Bool? in
      guard let stored = entries[key] else { return nil }
      if let sealed = stored.sealed {
        return try SecureBuffer.constantTimeEquals(sealed, count: stored.count, bytes: bytes)
      }
      return try stored.entry.takeUnretainedValue().secret.checkedConstantTimeEquals(bytes: bytes)
    }
  }
}
