import Synchronization

extension SecureStorage {
  /// For the package's tests only: makes every later `memfd_secret` call in this
  /// process fail with `errno` without being made (0 makes the call again), to
  /// stand in for a kernel without secret memory (`ENOSYS`); `EAGAIN` fails
  /// the mapping of a secret-memory file instead, as a locked-memory limit
  /// too low for it does.
  ///
  /// Call it in an exit-test child: it changes the whole process.
  @_spi(Testing) public static func simulateSecretMemoryFailure(errno: Int32) {
    Kernel.simulatedSecretMemoryFailure.store(errno, ordering: .relaxed)
  }
}

extension SecureStorage {
  /// For the package's tests only: where this process's sealing key is (its
  /// first byte), made here if there is none yet; to read it through
  /// `/proc/self/mem` (`EIO` in secret memory) or to look it up in
  /// `/proc/self/maps`.
  @_spi(Testing) public static func sealingKeyAddressForTesting() throws(SecureMemoryError)
    -> UnsafeRawPointer
  {
    try SealingKey.current()._withUnsafeGuaranteedRef { $0.key }
  }

  /// For the package's tests only: where the calling thread's first scratch
  /// region starts, nil before its first sealed window.
  @_spi(Testing) public static var scratchAddressOfCurrentThreadForTesting: UnsafeRawPointer? {
    ScratchStack.firstRegionOfCurrentThread
  }
}

extension SecureBuffer {
  /// For the package's tests only: a sealed buffer's resting bytes, its
  /// nonce counter (8 bytes), tag (16) and ciphertext (``count``), to flip
  /// one of them or to find the ciphertext in a scan; nil for a guarded
  /// buffer.
  @_spi(Testing) public var sealedBytesForTesting: UnsafeMutableRawBufferPointer? {
    guard let slot = sealedSlot else { return nil }
    return UnsafeMutableRawBufferPointer(start: slot.header, count: SealedSlot.headerCount + count)
  }
}

extension SecretTable {
  /// For the package's tests only: the resting bytes of the sealed secret
  /// under `key` (see ``SecureBuffer/sealedBytesForTesting``); nil when there
  /// is none or it is guarded.
  @_spi(Testing) public func sealedBytesForTesting(of key: Key) -> UnsafeMutableRawBufferPointer? {
    shard(for: key).entries.withLock { entries in
      guard let stored = entries[key], let slot = stored.sealed else { return nil }
      return UnsafeMutableRawBufferPointer(
        start: slot.header, count: SealedSlot.headerCount + stored.count)
    }
  }
}
