extension SecureBuffer {
  /// Allocates an empty buffer with room for at least `capacity` bytes in
  /// `region`, opened together with the region's other buffers; a buffer of its
  /// own, in the region's storage, when the region has no such room left.
  ///
  /// Every API works as on a buffer of its own. What differs: a window on this
  /// buffer opens the whole region, so a window on another of its buffers
  /// nested inside costs no protection change, and while it is open the
  /// region's other buffers are readable too (writable in a write window);
  /// ``protection`` says so (``Protection/sharesPagesWithOtherSecrets``). Past
  /// the last byte of ``capacity`` lies the trailing guard page for the first
  /// buffer carved, a canary for the others (checked when a write window
  /// closes and when the buffer is dropped). A buffer that grows past its room
  /// moves to a region of its own.
  ///
  /// - Complexity: no system call when the region has room (the canary is
  ///   written in a window: two `mprotect` calls); dropping the buffer costs
  ///   two `mprotect` calls (the wipe).
  /// - Throws: ``SecureMemoryError`` only when the region has no room and a
  ///   buffer of its own cannot be had.
  public init(capacity: Int = 0, sharing region: SharedSecureRegion) throws(SecureMemoryError) {
    guard let part = region.carve(capacity: capacity) else {
      try self.init(capacity: capacity, policy: region.policy, storage: region.storage, arena: nil)
      return
    }
    self.init(part: part, policy: region.policy)
  }

  /// True when the buffer's bytes are in a ``SharedSecureRegion`` (a buffer
  /// that grew past its room there has a region of its own).
  public var isInSharedRegion: Bool {
    if case .regionPart = region { true } else { false }
  }
}
