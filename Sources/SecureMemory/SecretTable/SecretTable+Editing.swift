import Synchronization

extension SecretTable {
  /// Copies `bytes` (from a window on another buffer) into a slot of the
  /// table's arena under `key`, replacing and wiping what was there.
  ///
  /// - Throws: ``SecureMemoryError`` when a slot cannot be had; the table is
  ///   then unchanged.
  /// - Complexity: O(`bytes.count`); no system call while a slab has room,
  ///   plus the replaced secret's wipe (and, sealed, one encryption).
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
    // Wiped once out of the table: no reader can reach it any more.
    guard let removed = shard(for: key).entries.withLock({ $0.removeValue(forKey: key) }) else {
      return false
    }
    removed.entry.release()
    return true
  }

  /// Wipes and forgets every secret.
  public func removeAll() {
    for shard in shards {
      let removed = shard.entries.withLock { entries in
        defer { entries.removeAll() }
        return Array(entries.values)
      }
      for stored in removed { stored.entry.release() }
    }
  }

  private func put(_ secret: consuming SecureBuffer, for key: Key) {
    let entry = Entry(secret)
    let stored = Stored(
      entry: .passRetained(entry), sealed: entry.secret.sealedSlot, count: entry.secret.count)
    // The replaced entry is wiped once out of the table, after the lock.
    let replaced = shard(for: key).entries.withLock { $0.updateValue(stored, forKey: key) }
    replaced?.entry.release()
  }
}
