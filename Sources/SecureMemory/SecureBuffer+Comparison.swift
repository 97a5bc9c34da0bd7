extension SecureBuffer {
  /// True when both buffers hold the same bytes, in time that depends only on
  /// their length.
  ///
  /// Buffers of different lengths compare unequal without a look at the bytes.
  /// Wraps `sodium_memcmp` inside a read window on each buffer.
  ///
  /// - Complexity: O(`count`), plus two `mprotect` calls per buffer.
  public func constantTimeEquals(_ other: borrowing SecureBuffer) -> Bool {
    guard count == other.count else { return false }
    return withUnsafeBytes { lhs in
      other.withUnsafeBytes { rhs in
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return Sodium.constantTimeEqual(left, right, count: lhs.count)
      }
    }
  }
}
