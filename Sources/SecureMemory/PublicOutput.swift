import SystemCalls

/// Writing bytes that are not secret to a descriptor, with the care
/// ``SecureBuffer/write(to:range:)`` takes, and without secure memory.
///
/// For protocol lines that carry nothing secret (an Assuan `OK`, `ERR` or `S`
/// line, `D` lines of `GETINFO`): staging them in a `SecureBuffer` would cost
/// three protection pairs a line and protect nothing. A secret never goes this
/// way; it is written from its `SecureBuffer`.
package enum PublicOutput {
  /// Writes every byte of `bytes` to `descriptor` with `write(2)`.
  ///
  /// Retries short writes and `EINTR` until every byte is written, and never
  /// raises `SIGPIPE` (blocked for the calling thread around the writes, and one
  /// they caused taken off the pending set, as ``SecureBuffer/write(to:range:)``
  /// does): a reader that went away is reported as `EPIPE`.
  ///
  /// - Complexity: one `write(2)` per short write, and three signal-mask system
  ///   calls; no `mprotect`.
  /// - Throws: ``SecureMemoryError`` with code `writeFailed` and the `errno`.
  package static func write(
    _ bytes: UnsafeRawBufferPointer, to descriptor: Int32
  ) throws(SecureMemoryError) {
    if let failure = System.writeAll(descriptor, bytes) {
      throw .outputFailed(errno: failure.code)
    }
  }
}
