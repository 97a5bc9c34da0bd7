/// The passphrases cached under one name, oldest first, as one `SecureBuffer`
/// holding the key's payload and the range of each passphrase in it.
///
/// The payload is the format systemd's `ask-password` keeps (and reads back with
/// `strv_parse_nulstr`): the passphrases joined by NUL bytes, with no NUL after
/// the last. An empty passphrase between two NULs is an entry; a NUL at the very
/// end does not make an empty last one.
///
/// One buffer for the list, not one per passphrase: a buffer costs a guarded
/// allocation (four mappings, a locked page), and the ranges are no secret.
public struct KeyringEntries: ~Copyable, Sendable {
  /// The passphrases joined by NUL bytes, as the kernel held them (without a
  /// trailing NUL).
  public let payload: SecureBuffer
  /// Where each passphrase lies in ``payload``, in order.
  public let ranges: [Range<Int>]

  /// Takes `payload` as read from the key, finding the NUL bytes with
  /// `repne scasb` (no register is left holding the bytes passed over).
  init(parsing payload: consuming SecureBuffer) {
    var ranges: [Range<Int>] = []
    payload.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      var start = 0
      while true {
        let end = start + firstOffsetOfSecretByte(0, in: base + start, count: bytes.count - start)
        ranges.append(start..<end)
        if end == bytes.count { break }
        start = end + 1
      }
      // The last range is empty only after a NUL at the very end, which ends
      // the entry before it and starts none ("a\0" holds "a"; "a\0\0" holds
      // "a" and "").
      if ranges.last?.isEmpty == true { ranges.removeLast() }
    }
    if let last = ranges.last, last.upperBound < payload.count {
      payload.removeSubrange(last.upperBound..<payload.count)
    }
    self.payload = payload
    self.ranges = ranges
  }

  /// How many passphrases there are.
  public var count: Int { ranges.count }

  /// True when the key held no passphrase at all.
  public var isEmpty: Bool { ranges.isEmpty }

  /// Calls `body` with read-only access to the passphrase at `index`, inside
  /// one read window on the payload.
  ///
  /// - Precondition: `index` is in `0..<count`.
  public func withEntry<Result: ~Copyable, Failure: Error>(
    at index: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let range = ranges[index]
    return try payload.withUnsafeBytes { bytes throws(Failure) in
      try body(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }

  /// Writes the passphrase at `index` to `descriptor` from secure memory.
  ///
  /// - Throws: ``SecureMemoryError`` with code `writeFailed`.
  public func write(entryAt index: Int, to descriptor: Int32) throws(SecureMemoryError) {
    try payload.write(to: descriptor, range: ranges[index])
  }

  /// A buffer of its own holding a copy of the passphrase at `index`, in the
  /// same kind of memory as the entries.
  public func copyEntry(at index: Int) throws(SecureMemoryError) -> SecureBuffer {
    var copy = try SecureBuffer(
      capacity: ranges[index].count, locking: payload.lockPolicy,
      storage: payload.protection.storage)
    try withEntry(at: index) { bytes throws(SecureMemoryError) in try copy.append(bytes) }
    return copy
  }

  /// True when one of the passphrases is `secret`, each compared in time that
  /// depends on its length only (`sodium_memcmp`).
  public func contains(_ secret: borrowing SecureBuffer) -> Bool {
    var found = false
    secret.withUnsafeBytes { candidate in
      payload.withUnsafeBytes { bytes in
        for range in ranges where range.count == candidate.count {
          let entry = UnsafeRawBufferPointer(rebasing: bytes[range])
          let equal =
            range.isEmpty
            || Sodium.constantTimeEqual(
              entry.baseAddress!, candidate.baseAddress!, count: range.count)
          found = found || equal
        }
      }
    }
    return found
  }

  /// The payload, for ``KernelKeyring/read(name:storage:)`` to cut down to the first
  /// passphrase.
  consuming func takePayload() -> SecureBuffer {
    payload
  }

  /// The passphrases in one buffer, `separator` between each two (a line feed
  /// for one per line); the payload's NUL bytes are replaced in place.
  public consuming func joined(separator: UInt8) -> SecureBuffer {
    var buffer = payload
    let separators = ranges.dropLast().map(\.upperBound)
    buffer.withUnsafeMutableBytes { bytes in
      for offset in separators { bytes[offset] = separator }
    }
    return buffer
  }
}
