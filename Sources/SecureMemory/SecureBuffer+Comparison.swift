extension SecureBuffer {
  /// True when the bytes of this buffer in `range` and those of `other` in
  /// `otherRange` (each the whole buffer by default) are the same, in time
  /// that depends only on their length.
  ///
  /// Parts of different lengths compare unequal without a look at the bytes.
  /// Wraps `sodium_memcmp` inside a read window on each buffer.
  ///
  /// - Precondition: each range lies within its buffer's `count`.
  /// - Complexity: O(length), plus two `mprotect` calls per buffer.
  public func constantTimeEquals(
    _ other: borrowing SecureBuffer, range: Range<Int>? = nil, otherRange: Range<Int>? = nil
  ) -> Bool {
    let range = checkedRange(range)
    let otherRange = other.checkedRange(otherRange)
    guard range.count == otherRange.count else { return false }
    return other.withUnsafeBytes { rhs in
      constantTimeEquals(bytes: UnsafeRawBufferPointer(rebasing: rhs[otherRange]), range: range)
    }
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
  /// - Precondition: `range` lies within `count`.
  /// - Complexity: O(length), plus two `mprotect` calls.
  public func constantTimeEquals(bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) -> Bool {
    let range = checkedRange(range)
    guard range.count == bytes.count else { return false }
    return withUnsafeBytes { lhs in
      guard let left = lhs.baseAddress, let right = bytes.baseAddress else { return true }
      return Sodium.constantTimeEqual(left + range.lowerBound, right, count: range.count)
    }
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
