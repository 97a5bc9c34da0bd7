import Synchronization

extension SecretTable {
  /// Copies `bytes` (from a window on another buffer) into a slot of the
  /// table's arena under `key`, replacing and wiping what was there.
  ///
  /// - Throws: ``SecureMemoryError`` when a slot cannot be had; the table is
  ///   then unchanged.
  /// - Complexity: O(`bytes.count`); no system call while a slab has room,
  ///   plus the replaced secret's wipe.
  public func insert(copying bytes: UnsafeRawBufferPointer, for key: Key) throws(SecureMemoryError)
  {
    let secret = try SecureBuffer(copying: bytes, in: arena)
    put(secret, for: key)
  }

  /// Copies the bytes of `secret` in `range` (all of them by default) into a
  /// slot of the table's arena under `key`, replacing and wiping what was
  /// there. `secret` is left as it was: drop it to wipe it.
  ///
  /// - Throws: ``SecureMemoryError`` when a slot cannot be had.
  public func insert(
    copying secret: borrowing SecureBuffer, range: Range<Int>? = nil, for key: Key
  ) throws(SecureMemoryError) {
    let copy = try secret.withUnsafeBytes { bytes throws(SecureMemoryError) in
      let part = UnsafeRawBufferPointer(rebasing: bytes[secret.checkedRange(range)])
      return try SecureBuffer(copying: part, in: arena)
    }
    put(copy, for: key)
  }

  /// Wipes and forgets the secret under `key` at once; false when there was
  /// none.
  @discardableResult
  public func removeSecret(for key: Key) -> Bool {
    // Dropped under the lock: no reader can hold it while it is wiped.
    entries.withLock { $0.removeValue(forKey: key) != nil }
  }

  /// Wipes and forgets every secret.
  public func removeAll() {
    entries.withLock { $0.removeAll() }
  }

  private func put(_ secret: consuming SecureBuffer, for key: Key) {
    let entry = Entry(secret)
    entries.withLock { $0[key] = entry }
  }
}
