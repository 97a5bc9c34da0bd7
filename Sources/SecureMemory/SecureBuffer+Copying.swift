extension SecureBuffer {
  /// Allocates a buffer holding a copy of `other`'s bytes in `range` (all of
  /// them by default), under `policy` (by default the one `other` was
  /// allocated under), in the storage `other` is in: a copy of a sealed
  /// secret is sealed, one in secret memory is in secret memory (a copy of
  /// an arena's slot is a buffer of its own, in the arena's storage).
  ///
  /// The bytes go from one read window straight into the new buffer's write
  /// window with the package's own copy (`rep movsb`): they never pass through
  /// ordinary memory. Use it when a secret must live in two places on purpose
  /// (the original goes on, the copy is handed away); to hand the secret on
  /// without a second copy, move the buffer instead.
  ///
  /// - Complexity: one allocation and O(`other.count`).
  /// - Throws: ``SecureMemoryError`` when the new buffer cannot be had.
  ///
  /// - Precondition: `range` lies within `other.count`.
  public init(
    copying other: borrowing SecureBuffer, range: Range<Int>? = nil,
    locking policy: LockPolicy? = nil
  ) throws(SecureMemoryError) {
    let range = other.checkedRange(range)
    var buffer = try SecureBuffer(
      capacity: range.count, locking: policy ?? other.lockPolicy, storage: other.region.storage)
    try buffer.append(contentsOf: other, range: range)
    self = buffer
  }

  /// Appends a copy of `other`'s bytes in `range` (all of them by default),
  /// growing first if needed.
  ///
  /// Reads `other` inside its read window and writes inside this buffer's write
  /// window, with the package's own copy. Appending a buffer to itself is not
  /// possible: the compiler refuses the overlapping access.
  ///
  /// - Precondition: `range` lies within `other.count`.
  /// - Complexity: amortised O(length); two `mprotect` pairs.
  /// - Throws: ``SecureMemoryError`` when growing fails; the buffer is then
  ///   unchanged.
  public mutating func append(
    contentsOf other: borrowing SecureBuffer, range: Range<Int>? = nil
  ) throws(SecureMemoryError) {
    let range = other.checkedRange(range)
    try other.withUnsafeBytes { bytes throws(SecureMemoryError) in
      try append(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }

  /// A buffer of `count` random bytes from the kernel's generator, written
  /// straight into secure memory (a generated key or password never exists
  /// anywhere else).
  ///
  /// Wraps libsodium's `randombytes_buf` (`getrandom(2)`) inside a write window.
  ///
  /// - Parameters:
  ///   - count: how many random bytes.
  ///   - policy: whether a missing protection refuses the buffer.
  ///   - storage: which memory holds them (see ``SecureStorage``); sodium
  ///     memory by default.
  /// - Throws: ``SecureMemoryError`` when the buffer cannot be had.
  public static func random(
    count: Int, locking policy: LockPolicy = .required, storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) -> SecureBuffer {
    precondition(count >= 0, "SecureBuffer.random needs a count of 0 or more")
    return try fillingWithRandomBytes(
      SecureBuffer(capacity: count, locking: policy, storage: storage), count: count)
  }

  /// A buffer of `count` random bytes in a slot of `arena` (a region of its
  /// own in the arena's storage past 2,048 bytes), written straight into it:
  /// a session key per connection, generated where it is kept.
  ///
  /// Wraps libsodium's `randombytes_buf` (`getrandom(2)`) inside a write window.
  ///
  /// - Throws: ``SecureMemoryError`` when the slot cannot be had (see
  ///   ``init(capacity:in:)``).
  public static func random(count: Int, in arena: SecureArena) throws(SecureMemoryError)
    -> SecureBuffer
  {
    precondition(count >= 0, "SecureBuffer.random needs a count of 0 or more")
    return try fillingWithRandomBytes(SecureBuffer(capacity: count, in: arena), count: count)
  }

  private static func fillingWithRandomBytes(
    _ buffer: consuming SecureBuffer, count: Int
  ) throws(SecureMemoryError) -> SecureBuffer {
    var buffer = buffer
    do {
      try buffer.append(count: count) { Sodium.fillRandom($0.baseAddress!, count: $0.count) }
    } catch {
      // The closure cannot throw, and the capacity was reserved above.
      if case .memory(let error) = error { throw error }
    }
    return buffer
  }
}
