extension SecureBuffer {
  /// Appends a copy of `bytes`, growing first if needed.
  ///
  /// - Complexity: amortised O(`bytes.count`); two `mprotect` calls.
  /// - Throws: ``SecureMemoryError`` when growing needs a new buffer and none can
  ///   be had; the buffer is then unchanged.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(SecureMemoryError) {
    try replaceSubrange(count..<count, with: bytes)
  }

  /// Replaces the bytes in `range` with a copy of `bytes`.
  ///
  /// The tail moves inside one window; bytes freed at the end when
  /// the buffer shrinks are zeroed.
  ///
  /// - Precondition: `range` lies within `0...count`.
  /// - Complexity: O(`count - range.lowerBound + bytes.count`); two `mprotect`
  ///   calls, plus a growth when the capacity is exceeded.
  /// - Throws: ``SecureMemoryError`` when growing fails; the buffer is unchanged.
  public mutating func replaceSubrange(
    _ range: Range<Int>, with bytes: UnsafeRawBufferPointer
  ) throws(SecureMemoryError) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecureBuffer: range \(range) out of bounds for count \(count)")
    let newCount = count - range.count + bytes.count
    if newCount > capacity { try grow(toAtLeast: newCount) }
    let oldCount = count
    withWritableRegion { region in
      let base = region.start
      let tailCount = oldCount - range.upperBound
      if tailCount > 0 && range.count != bytes.count {
        moveSecretBytes(
          to: base + range.lowerBound + bytes.count, from: base + range.upperBound, count: tailCount
        )
      }
      if let source = bytes.baseAddress, bytes.count > 0 {
        moveSecretBytes(to: base + range.lowerBound, from: source, count: bytes.count)
      }
      if newCount < oldCount { Sodium.zero(base + newCount, count: oldCount - newCount) }
    }
    count = newCount
  }

  /// Removes the bytes in `range`, zeroing the bytes freed at the end.
  ///
  /// - Precondition: `range` lies within `0...count`.
  public mutating func removeSubrange(_ range: Range<Int>) {
    // Shrinking never grows, so the only error `replaceSubrange` throws cannot occur.
    try! replaceSubrange(range, with: UnsafeRawBufferPointer(start: nil, count: 0))
  }

  /// Wipes the whole capacity (`sodium_memzero`) and sets the count to zero. The
  /// allocation stays, ready for new bytes.
  public mutating func removeAll() {
    withWritableRegion { $0.zero() }
    count = 0
  }

  /// Makes room for at least `minimumCapacity` bytes without further growth.
  ///
  /// - Throws: ``SecureMemoryError`` when the new buffer cannot be had; the buffer
  ///   is then unchanged.
  public mutating func reserveCapacity(_ minimumCapacity: Int) throws(SecureMemoryError) {
    if minimumCapacity > capacity { try moveToNewRegion(capacity: minimumCapacity) }
  }

  /// Grows geometrically, so a run of appends costs amortised O(1) allocations.
  mutating func grow(toAtLeast minimumCapacity: Int) throws(SecureMemoryError) {
    try moveToNewRegion(capacity: max(minimumCapacity, capacity * 2))
  }

  /// Copies the bytes into a new guarded region of the same backing (a larger
  /// slot, on an arena, while one holds them), then wipes and frees the old
  /// one: the bytes never pass through ordinary memory.
  private mutating func moveToNewRegion(capacity newCapacity: Int) throws(SecureMemoryError) {
    let (newRegion, newProtection) = try BufferBacking.allocate(
      minimumCapacity: newCapacity, policy: policy, storage: region.storage, arena: arena)
    let oldRegion = region
    let newGate = AccessGate(protection: newProtection)
    gate.openRead(oldRegion)
    newGate.openWrite(newRegion)
    moveSecretBytes(to: newRegion.start, from: oldRegion.start, count: count)
    newGate.closeWrite(newRegion)
    gate.closeRead(oldRegion)
    release(oldRegion)
    region = newRegion
    ownerProcess = Kernel.processID
    var protection = newGate.protection
    protection.secretMemoryFallback = gate.protection.secretMemoryFallback
    gate.replaceProtection(protection)
  }
}

extension SecureBuffer {
  /// Appends `count` bytes that `body` writes straight into the buffer's spare
  /// capacity, inside a read-write window.
  ///
  /// Use it for bytes computed from secret input (a code point encoded as UTF-8,
  /// an escaped form of a password) so they are born in secure memory instead of
  /// in a temporary. If `body` throws, the new bytes are wiped and not appended.
  ///
  /// - Throws: ``SecureMemoryError`` when growing fails, or what `body` throws.
  public mutating func append<Failure: Error>(
    count newCount: Int,
    initializingWith body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
  ) throws(AppendError<Failure>) {
    precondition(newCount >= 0, "SecureBuffer: cannot append a negative count")
    if count + newCount > capacity {
      do { try grow(toAtLeast: count + newCount) } catch { throw .memory(error) }
    }
    let offset = count
    let result: Result<Void, Failure> = withWritableRegion { region in
      let spare = UnsafeMutableRawBufferPointer(start: region.start + offset, count: newCount)
      do throws(Failure) {
        try body(spare)
        return .success(())
      } catch {
        Sodium.zero(region.start + offset, count: newCount)
        return .failure(error)
      }
    }
    if case .failure(let error) = result { throw .body(error) }
    count += newCount
  }
}

/// Why ``SecureBuffer/append(count:initializingWith:)`` did not append.
public enum AppendError<Failure: Error>: Error {
  /// The buffer could not grow.
  case memory(SecureMemoryError)
  /// The initialising closure threw.
  case body(Failure)
}
