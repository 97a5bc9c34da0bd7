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
    let window = try openWrite(touching: spliceExtent(oldCount, range, bytes.count))
    Self.splice(window, oldCount, range, bytes)
    closeWrite(window, count: newCount)
  }

  /// Replaces the bytes in `range` with a copy of `bytes` once `check` has read
  /// the buffer's current bytes and not refused, all inside one read-write
  /// window.
  ///
  /// For an edit that must look at the bytes around it first (where the
  /// character boundaries fall) and may refuse after looking (a limit): the look
  /// and the write share one protection pair instead of a read window and then
  /// a write window. `check` sees the bytes before the edit; it must not keep
  /// the pointer.
  ///
  /// - Precondition: `range` lies within `0...count`.
  /// - Complexity: that of ``replaceSubrange(_:with:)`` plus `check`; two
  ///   `mprotect` calls, plus a growth when the capacity is exceeded (made
  ///   before the window, and kept if `check` refuses).
  /// - Throws: ``AppendError/memory(_:)`` when growing fails,
  ///   ``AppendError/body(_:)`` with what `check` throws; either way the bytes
  ///   are unchanged.
  public mutating func replaceSubrange<Failure: Error>(
    _ range: Range<Int>, with bytes: UnsafeRawBufferPointer,
    checkingFirst check: (_ current: UnsafeRawBufferPointer) throws(Failure) -> Void
  ) throws(AppendError<Failure>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecureBuffer: range \(range) out of bounds for count \(count)")
    let newCount = count - range.count + bytes.count
    if newCount > capacity {
      do { try grow(toAtLeast: newCount) } catch { throw .memory(error) }
    }
    let oldCount = count
    let window: BufferWindow
    do { window = try openWrite(touching: spliceExtent(oldCount, range, bytes.count)) } catch {
      throw .memory(error)
    }
    do throws(Failure) {
      try check(UnsafeRawBufferPointer(start: window.start, count: oldCount))
    } catch {
      closeWrite(window, count: oldCount)
      throw .body(error)
    }
    Self.splice(window, oldCount, range, bytes)
    closeWrite(window, count: newCount)
  }

  /// Lends the bytes read-only to `body`, which sets `removing` to how many of
  /// them, from the front, to remove; they are removed (the rest moved to the
  /// front, the freed tail zeroed) inside the same read-write window, when
  /// `body` returns or throws.
  ///
  /// For a buffer consumed from the front (the bytes a terminal sent): reading
  /// what is there and removing what was used cost one protection pair instead
  /// of two. The pointer `body` gets stays valid, with the bytes it saw, until
  /// `body` ends, whatever `removing` says.
  ///
  /// A sealed buffer's failed authentication is reported as
  /// ``withUnsafeBytes(_:)`` reports it.
  ///
  /// - Precondition: `removing` is within `0...count` when `body` ends.
  /// - Complexity: O(`count`); two `mprotect` calls (a sealed buffer: a
  ///   decryption and an encryption).
  public mutating func withUnsafeBytesRemovingPrefix<Result, Failure: Error>(
    _ body: (_ bytes: UnsafeRawBufferPointer, _ removing: inout Int) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let oldCount = count
    var removed = 0
    let window: BufferWindow
    do { window = try openWrite(touching: oldCount) } catch {
      throw Self.reported(error, as: Failure.self)
    }
    defer {
      precondition(
        removed >= 0 && removed <= oldCount,
        "SecureBuffer: cannot remove \(removed) of \(oldCount) bytes")
      Self.splice(window, oldCount, 0..<removed, UnsafeRawBufferPointer(start: nil, count: 0))
      closeWrite(window, count: oldCount - removed)
    }
    return try body(UnsafeRawBufferPointer(start: window.start, count: oldCount), &removed)
  }

  /// Appends what `receive` writes into the spare capacity, then lends every
  /// byte to `body` to remove a prefix (as
  /// ``withUnsafeBytesRemovingPrefix(_:)`` does), all inside one read-write
  /// window.
  ///
  /// For bytes that arrive and are used at once (a terminal's key, decoded and
  /// handed on): their arrival, their use and the removal of what was used cost
  /// one protection pair instead of two. `receive` gets room for `maximumCount`
  /// bytes and returns how many it wrote (as `read(2)` does); when it returns 0
  /// or less nothing is appended, `body` is not called, and the result is nil.
  /// Grows (outside the window) to make room first.
  ///
  /// - Precondition: `receive` returns at most `maximumCount`; `removing` is
  ///   within `0...count` when `body` ends.
  /// - Complexity: O(`count`) plus what the closures cost; two `mprotect` calls.
  /// - Throws: ``AppendError/memory(_:)`` when growing fails (nothing was
  ///   received), ``AppendError/body(_:)`` with what `body` throws (what it
  ///   removed is removed).
  package mutating func append<Result, Failure: Error>(
    atMost maximumCount: Int, receivingWith receive: (UnsafeMutableRawBufferPointer) -> Int,
    thenRemovingPrefix body: (_ bytes: UnsafeRawBufferPointer, _ removing: inout Int)
      throws(Failure) -> Result
  ) throws(AppendError<Failure>) -> Result? {
    precondition(maximumCount > 0, "SecureBuffer: append(atMost:) needs a positive count")
    if count + maximumCount > capacity {
      do { try grow(toAtLeast: count + maximumCount) } catch { throw .memory(error) }
    }
    let oldCount = count
    var newCount = oldCount
    var removed = 0
    let window: BufferWindow
    do { window = try openWrite(touching: oldCount + maximumCount) } catch {
      throw .memory(error)
    }
    let result: Swift.Result<Result, Failure>?
    let received = receive(
      UnsafeMutableRawBufferPointer(start: window.start + oldCount, count: maximumCount))
    if received > 0 {
      precondition(received <= maximumCount, "SecureBuffer: received more than the room given")
      newCount = oldCount + received
      do throws(Failure) {
        result = .success(
          try body(UnsafeRawBufferPointer(start: window.start, count: newCount), &removed))
      } catch {
        result = .failure(error)
      }
      precondition(
        removed >= 0 && removed <= newCount,
        "SecureBuffer: cannot remove \(removed) of \(newCount) bytes")
      Self.splice(window, newCount, 0..<removed, UnsafeRawBufferPointer(start: nil, count: 0))
    } else {
      result = nil
    }
    closeWrite(window, count: newCount - removed)
    switch result {
    case nil: return nil
    case .success(let value): return value
    case .failure(let error): throw .body(error)
    }
  }

  /// Appends what `receive` writes into the spare capacity and lends every
  /// byte to `body` in the same window; `body` returns how many bytes to
  /// remove from the front.
  ///
  /// Not generic, for the same reason as
  /// ``read(from:maximumCount:timeout:thenConsuming:)``: a generic form,
  /// called from another module, looks up its type metadata on every call. A
  /// caller keeps what `body` found in a variable of its own.
  ///
  /// - Returns: whether anything was received (`body` was called).
  /// - Throws: ``SecureMemoryError`` when growing fails; nothing was received.
  public mutating func append(
    atMost maximumCount: Int, receivingWith receive: (UnsafeMutableRawBufferPointer) -> Int,
    thenConsuming body: (_ bytes: UnsafeRawBufferPointer) -> Int
  ) throws(SecureMemoryError) -> Bool {
    do {
      return try append(atMost: maximumCount, receivingWith: receive) {
        (bytes: UnsafeRawBufferPointer, removing: inout Int) throws(Never) in
        removing = body(bytes)
      } != nil
    } catch {
      switch error {
      case .memory(let failure): throw failure
      }
    }
  }

  /// How far a ``splice(_:_:_:_:)`` of `count` bytes over `range` of the
  /// first `oldCount` may write: the new count, the old one, and the spare
  /// capacity a tail moved right bounces through.
  private func spliceExtent(_ oldCount: Int, _ range: Range<Int>, _ count: Int) -> Int {
    let newCount = oldCount - range.count + count
    let tailCount = oldCount - range.upperBound
    return min(capacity, max(oldCount, newCount + (count > range.count ? tailCount : 0)))
  }

  /// Within an open read-write window: replaces `range` of the first `oldCount`
  /// bytes with `bytes`, moving the tail with the package's copy and zeroing
  /// what the buffer no longer holds.
  private static func splice(
    _ region: BufferWindow, _ oldCount: Int, _ range: Range<Int>,
    _ bytes: UnsafeRawBufferPointer
  ) {
    let base = region.start
    let newCount = oldCount - range.count + bytes.count
    let tailCount = oldCount - range.upperBound
    if tailCount > 0 && range.count != bytes.count {
      let destination = base + range.lowerBound + bytes.count
      let source = base + range.upperBound
      if destination > source && newCount + tailCount <= region.room {
        // The tail moves right, over itself: a backward string copy runs several
        // times slower than two forward ones, so bounce it through the spare
        // capacity past the new end (neither copy overlaps) and wipe that spare
        // before the window closes.
        let bounce = base + newCount
        moveSecretBytes(to: bounce, from: source, count: tailCount)
        moveSecretBytes(to: destination, from: bounce, count: tailCount)
        Sodium.zero(bounce, count: tailCount)
      } else {
        moveSecretBytes(to: destination, from: source, count: tailCount)
      }
    }
    if let source = bytes.baseAddress, bytes.count > 0 {
      moveSecretBytes(to: base + range.lowerBound, from: source, count: bytes.count)
    }
    if newCount < oldCount { Sodium.zero(base + newCount, count: oldCount - newCount) }
  }

  /// Removes the bytes in `range`, zeroing the bytes freed at the end.
  ///
  /// - Precondition: `range` lies within `0...count`.
  ///
  /// A sealed buffer whose ciphertext fails authentication cannot be edited,
  /// and this method cannot report it: the process ends with the message of
  /// `SecureMemoryError.Code.sealedSecretAltered`. Use
  /// ``replaceSubrange(_:with:)`` with no bytes to hear it as an error.
  public mutating func removeSubrange(_ range: Range<Int>) {
    // Shrinking never grows: the one error left is a sealed buffer's.
    do { try replaceSubrange(range, with: UnsafeRawBufferPointer(start: nil, count: 0)) } catch {
      fatalError("SecureBuffer: \(error.description)")
    }
  }

  /// Wipes the whole capacity (`sodium_memzero`) and sets the count to zero. The
  /// allocation stays, ready for new bytes.
  public mutating func removeAll() {
    if case .sealed(let slot) = region {
      // Nothing to open: the ciphertext is wiped, and the key stays.
      slot.wipe(count: count)
      count = 0
      return
    }
    // A guarded buffer's window cannot fail.
    guard let window = try? openWrite() else { return }
    Sodium.zero(window.start, count: window.room)
    closeWrite(window, count: 0)
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
    if case .sealed(let oldSlot) = region, case .sealed(let newSlot) = newRegion {
      // The ciphertext moves as it is: its nonce does not depend on where
      // it rests, and the plaintext is never opened.
      oldSlot.copySealed(count: count, to: newSlot)
      region = newRegion
      oldSlot.free()
      ownerProcess = Kernel.processID
      return
    }
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
    // A buffer that fell back keeps saying why while it is still in sodium
    // memory; one whose new region is in secret memory has no fallback left.
    var protection = newGate.protection
    if protection.storage != .secretMemory && protection.secretMemoryFallback == nil {
      protection.secretMemoryFallback = gate.protection.secretMemoryFallback
    }
    gate.replaceProtection(protection)
  }
}

extension SecureBuffer {
  /// Appends `count` bytes that `body` writes straight into the buffer's spare
  /// capacity, inside a read-write window over the pages they take (the whole
  /// buffer's when that is all of it, or when the kernel cannot split it).
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
    let window: BufferWindow
    do {
      window = try openWrite(touching: offset + newCount, over: offset..<offset + newCount)
    } catch { throw .memory(error) }
    let spare = UnsafeMutableRawBufferPointer(start: window.start + offset, count: newCount)
    do throws(Failure) {
      try body(spare)
    } catch {
      Sodium.zero(window.start + offset, count: newCount)
      closeWrite(window, count: offset)
      throw .body(error)
    }
    closeWrite(window, count: offset + newCount)
  }
}

/// Why an edit that runs a caller's closure in its window
/// (``SecureBuffer/append(count:initializingWith:)``,
/// ``SecureBuffer/replaceSubrange(_:with:checkingFirst:)``) did not happen.
public enum AppendError<Failure: Error>: Error {
  /// The buffer could not grow.
  case memory(SecureMemoryError)
  /// The initialising closure threw.
  case body(Failure)
}
