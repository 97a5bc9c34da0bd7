extension SecureBuffer {
  /// Allocates an empty buffer with room for at least `capacity` bytes in a
  /// slot of `arena`: the smallest of ``SecureArena/slotSizes`` that holds it,
  /// or a region of its own when none does.
  ///
  /// Every API works as on a buffer of its own: windows, editing, growth (to
  /// the next size class that holds the new count, the old slot wiped at once,
  /// then past 2,048 bytes to a region of its own in the arena's
  /// ``SecureArena/storage``), comparison, reading and
  /// writing descriptors. What differs is in ``protection``: a window opens the
  /// whole page the slot lies on (two where it straddles a boundary), so while
  /// it is open the other secrets on that page are readable too
  /// (``Protection/sharesPagesWithOtherSecrets``), and the bytes after the last
  /// one of ``capacity`` are the slot's canary, not a guard page: a write there
  /// does not fault, it ends the process when the window closes or the buffer
  /// is dropped. In a secret-memory slab (``Protection/storage`` is
  /// ``SecureStorage/secretMemory``) the kernel cannot read the slot for
  /// anyone, root included, open window or not
  /// (``Protection/isHiddenFromKernel``); the neighbours a window opens are
  /// readable only to this process's own code.
  ///
  /// Slots are always allocated under ``LockPolicy/required``.
  ///
  /// - Complexity: O(1) and no system call while the size class has room;
  ///   dropping the buffer costs two `mprotect` calls (the wipe).
  /// - Throws: ``SecureMemoryError`` when the size class needs a new slab and
  ///   none can be had (`lockFailed` at `RLIMIT_MEMLOCK`); buffers already on
  ///   the arena are unaffected.
  public init(capacity: Int = 0, in arena: SecureArena) throws(SecureMemoryError) {
    try self.init(capacity: capacity, policy: .required, arena: arena)
  }

  /// Allocates a buffer in a slot of `arena` holding a copy of `bytes`.
  ///
  /// As ``init(copying:locking:storage:)``: wipe the source yourself.
  public init(copying bytes: UnsafeRawBufferPointer, in arena: SecureArena)
    throws(SecureMemoryError)
  {
    var buffer = try SecureBuffer(capacity: bytes.count, in: arena)
    try buffer.append(bytes)
    self = buffer
  }

  /// True when the buffer's bytes are in a slot of an arena rather than in a
  /// region of their own (a buffer on an arena that grew past 2,048 bytes has
  /// one of its own).
  public var isInArena: Bool {
    if case .arenaSlot = region { true } else { false }
  }
}
