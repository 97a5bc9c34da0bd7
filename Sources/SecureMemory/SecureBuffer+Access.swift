extension SecureBuffer {
  /// Calls `body` with read-only access to the buffer's bytes.
  ///
  /// The pages are readable only while `body` runs; keeping the pointer past it
  /// and reading through it faults. Windows nest, and readers on several threads
  /// share one window: the pages become no-access again when the last one leaves.
  ///
  /// - Complexity: two `mprotect` calls for the outermost window, none for a
  ///   nested one.
  public func withUnsafeBytes<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    gate.openRead(region)
    defer { gate.closeRead(region) }
    return try body(UnsafeRawBufferPointer(start: region.start, count: count))
  }

  /// Calls `body` with read-write access to the buffer's bytes.
  ///
  /// The window covers ``count`` bytes; to change the count, use the editing
  /// methods. The pages are no-access again as soon as `body` returns or throws.
  ///
  /// - Complexity: two `mprotect` calls.
  public mutating func withUnsafeMutableBytes<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withWritableRegion { region throws(Failure) in
      try body(UnsafeMutableRawBufferPointer(start: region.start, count: count))
    }
  }

  /// Opens a read-write window over the whole capacity for editing inside the
  /// module.
  func withWritableRegion<Result: ~Copyable, Failure: Error>(
    _ body: (BufferBacking) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    gate.openWrite(region)
    defer { gate.closeWrite(region) }
    return try body(region)
  }

  /// As ``withWritableRegion(_:)``, with the window over only the pages that
  /// hold `bytes` where that is fewer than all (`AccessGate.openWrite(_:bytes:)`):
  /// `body` may touch those bytes and no others.
  func withWritableRegion<Result: ~Copyable, Failure: Error>(
    over bytes: Range<Int>, _ body: (BufferBacking) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let pages = gate.openWrite(region, bytes: bytes)
    defer { gate.closeWrite(region, pages: pages) }
    return try body(region)
  }
}
