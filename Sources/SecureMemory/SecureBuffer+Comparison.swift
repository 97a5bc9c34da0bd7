extension SecureBuffer {
  /// True when the bytes of this buffer in `range` and those of `other` in
  /// `otherRange` (each the whole buffer by default) are the same, in time
  /// that depends only on their length.
  ///
  /// Parts of different lengths compare unequal without a look at the bytes.
  /// Wraps `sodium_memcmp` inside a read window on each buffer. A sealed
  /// buffer whose ciphertext fails authentication equals nothing.
  ///
  /// - Precondition: each range lies within its buffer's `count`.
  /// - Complexity: O(length), plus two `mprotect` calls per buffer (a sealed
  ///   one: a decryption, no system call).
  public func constantTimeEquals(
    _ other: borrowing SecureBuffer, range: Range<Int>? = nil, otherRange: Range<Int>? = nil
  ) -> Bool {
    let range = checkedRange(range)
    let otherRange = other.checkedRange(otherRange)
    guard range.count == otherRange.count else { return false }
    guard let window = try? other.openRead() else { return false }
    defer { other.closeRead(window) }
    let rhs = UnsafeRawBufferPointer(start: window.start, count: other.count)
    return constantTimeEquals(
      bytes: UnsafeRawBufferPointer(rebasing: rhs[otherRange]), range: range)
  }

  /// True when the bytes of this buffer in `range` (all of them by default)
  /// are `bytes`, in time that depends only on their length.
  ///
  /// For bytes the caller already holds in a window, such as a candidate
  /// password compared with many stored ones: open the candidate's window once
  /// and compare inside it, so each compare opens only this buffer's window:
  ///
  /// ```swift
  /// candidate.withUnsafeBytes { typed in
  ///   for stored in storedPasswords where stored.constantTimeEquals(bytes: typed) { ... }
  /// }
  /// ```
  ///
  /// Wraps `sodium_memcmp` inside a read window on this buffer.
  ///
  /// A sealed buffer whose ciphertext fails authentication equals nothing:
  /// false. ``checkedConstantTimeEquals(bytes:range:)`` throws instead.
  ///
  /// - Precondition: `range` lies within `count`.
  /// - Complexity: O(length), plus two `mprotect` calls (a sealed buffer: a
  ///   decryption of ``count`` bytes, no system call).
  public func constantTimeEquals(bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) -> Bool {
    (try? checkedConstantTimeEquals(bytes: bytes, range: range)) ?? false
  }

  /// As ``constantTimeEquals(bytes:range:)``, but a sealed buffer whose
  /// ciphertext fails authentication throws.
  ///
  /// - Throws: ``SecureMemoryError`` with code
  ///   `SecureMemoryError.Code.sealedSecretAltered` (sealed buffers only).
  public func checkedConstantTimeEquals(
    bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil
  ) throws(SecureMemoryError) -> Bool {
    let range = checkedRange(range)
    guard range.count == bytes.count else { return false }
    let window = try openRead()
    defer { closeRead(window) }
    guard let right = bytes.baseAddress, range.count > 0 else { return true }
    return Sodium.constantTimeEqual(window.start + range.lowerBound, right, count: range.count)
  }

  /// Whether the `count` bytes sealed in `slot` are `bytes`, in constant
  /// time: the compare of a ``SecretTable`` that reaches a sealed entry's
  /// ciphertext without its buffer.
  @usableFromInline static func constantTimeEquals(
    _ slot: SealedSlot, count: Int, bytes: UnsafeRawBufferPointer
  ) throws(SecureMemoryError) -> Bool {
    guard count == bytes.count else { return false }
    let scratch = try Sealing.open(slot, count: count, room: count)
    defer { Sealing.close(scratch, wiping: count) }
    guard let right = bytes.baseAddress, count > 0 else { return true }
    return Sodium.constantTimeEqual(scratch.start, right, count: count)
  }

  /// The slot of a sealed buffer; nil for a guarded one.
  var sealedSlot: SealedSlot? {
    if case .sealed(let slot) = region { slot } else { nil }
  }

  /// `range`, or all of the bytes when nil, checked to lie within `count`.
  func checkedRange(_ range: Range<Int>?) -> Range<Int> {
    guard let range else { return 0..<count }
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecureBuffer: range \(range) out of bounds for count \(count)")
    return range
  }
}
