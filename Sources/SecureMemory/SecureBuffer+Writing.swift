import Glibc

extension SecureBuffer {
  /// Writes the bytes in `range` (all of them by default) to `descriptor` with
  /// `write(2)`, from inside a read window: the secret goes from secure memory to
  /// the kernel with no copy in between.
  ///
  /// Retries short writes and `EINTR` until every byte is written.
  ///
  /// - Throws: ``SecureMemoryError`` with code `writeFailed` and the `errno`.
  public func write(to descriptor: Int32, range: Range<Int>? = nil) throws(SecureMemoryError) {
    let range = range ?? 0..<count
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecureBuffer: range \(range) out of bounds for count \(count)")
    let failure: Int32? = withUnsafeBytes { bytes in
      var offset = range.lowerBound
      while offset < range.upperBound {
        let written = Glibc.write(
          descriptor, bytes.baseAddress! + offset, range.upperBound - offset)
        if written < 0 {
          if Kernel.errno == EINTR { continue }
          return Kernel.errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw .writeFailed(errno: failure) }
  }
}
