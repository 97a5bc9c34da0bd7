import Glibc

/// Secure memory that input lands in and is used from at once, and that stays
/// readable and writable between uses because it holds nothing then.
///
/// A ``SecureBuffer`` is no-access outside its windows, so a buffer that a key
/// is read into needs a protection change before every `read(2)`, and after an
/// idle wait that one `mprotect` costs as much as a whole echo of the peers.
/// A landing area is the same guarded, locked memory, left out of core dumps
/// and forks (and in secret memory where the kernel offers it), kept open:
/// a `read` lands in it, the bytes are used in place, and ``wipe()`` zeroes
/// them before the caller waits again. Bytes that must wait (half a character,
/// an unfinished escape sequence) belong in a ``SecureBuffer``, not here; a
/// read can leave room at the front for them to join the new bytes
/// (``fillFront(with:)``).
///
/// The rule this keeps: no secret byte is accessible outside a window. The
/// area is accessible, and empty, whenever no use is in progress; a residue
/// scan taken while its owner waits finds nothing in it.
///
/// - Complexity: ``read(from:maximumCount:leavingFront:)`` is one `read(2)`
///   and no other system call; ``wipe()`` zeroes only what the last read
///   wrote.
package struct LandingArea: ~Copyable {
  private let region: GuardedRegion
  private let ownerProcess: Int32
  /// How many bytes the last read left (its front included), until ``wipe()``.
  package private(set) var count = 0
  /// The bytes at the start the last read left for ``fillFront(with:)``.
  private var unfilledFront = 0
  /// The protections that hold, verified as a ``SecureBuffer``'s are; the area
  /// is never inaccessible, so ``Protection/isInaccessibleOutsideWindows`` is false.
  package let protection: Protection

  /// Maps an area of at least `capacity` bytes in `storage` and opens it for good.
  ///
  /// - Throws: ``SecureMemoryError`` as `SecureBuffer(capacity:locking:storage:)`
  ///   does under ``LockPolicy/required``.
  package init(capacity: Int, storage: SecureStorage) throws(SecureMemoryError) {
    var (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: capacity, policy: .required, storage: storage)
    guard region.protectReadWrite() else {
      let errno = Kernel.errno
      region.free()
      throw .protectionFailed("opening a landing area (mprotect)", errno: errno)
    }
    protection.isInaccessibleOutsideWindows = false
    self.region = region
    self.protection = protection
    ownerProcess = Kernel.processID
  }

  deinit {
    // In a forked child the pages read as zeros or are not mapped at all (see
    // `SecureBuffer.release`): nothing to wipe, and no canary to check.
    if ownerProcess == Kernel.processID || !protection.isWipedOnFork {
      region.free()
    }
  }

  /// How many bytes one read may bring.
  package var capacity: Int { region.capacity }

  /// Reads once from `descriptor` (`read(2)`, at most `maximumCount` bytes,
  /// and no more than fit after `front`) into the empty area, after `front`
  /// bytes left for ``fillFront(with:)``, without waiting first: call it when
  /// `poll` said the descriptor is readable.
  ///
  /// - Throws: ``SecureMemoryError`` with code `readFailed` for an error other
  ///   than `EINTR` (``ReadOutcome/interrupted``) and `EAGAIN`
  ///   (``ReadOutcome/timedOut``).
  package mutating func read(
    from descriptor: Int32, maximumCount: Int, leavingFront front: Int = 0
  ) throws(SecureMemoryError) -> ReadOutcome {
    let room = takeRoom(maximumCount, after: front)
    let result = Glibc.read(descriptor, room.baseAddress!, room.count)
    let outcome = try ReadOutcome(readReturning: result, errno: Kernel.errno)
    if case .bytes(let received) = outcome { arrived(received, after: front) }
    return outcome
  }

  /// Lets `receive` write into the empty area (at most `maximumCount` bytes,
  /// after `front` bytes left for ``fillFront(with:)``) and keeps the count it
  /// returns, as ``read(from:maximumCount:leavingFront:)`` keeps what
  /// `read(2)` returns.
  package mutating func receive(
    atMost maximumCount: Int, leavingFront front: Int = 0,
    receivingWith receive: (UnsafeMutableRawBufferPointer) -> Int
  ) {
    let room = takeRoom(maximumCount, after: front)
    let received = receive(room)
    precondition(
      received >= 0 && received <= room.count, "LandingArea: received more than the room")
    if received > 0 { arrived(received, after: front) }
  }

  /// Copies `bytes`, what waited from an earlier read, into the front the last
  /// read left for them, so that they and the new bytes are one run.
  ///
  /// - Precondition: `bytes.count` is the front the last read left.
  package mutating func fillFront(with bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count == unfilledFront, "LandingArea: the front is another size")
    if let source = bytes.baseAddress {
      moveSecretBytes(to: region.start, from: source, count: bytes.count)
    }
    unfilledFront = 0
  }

  /// Leaves `front` bytes for ``fillFront(with:)`` with nothing read after
  /// them: for decoding what waited, at its deadline, where reads land.
  package mutating func reserveFront(_ front: Int) {
    precondition(count == 0, "LandingArea: a front reserved before the last bytes were wiped")
    precondition(front >= 0 && front < capacity, "LandingArea: no room for the front")
    arrived(0, after: front)
  }

  /// How many bytes one read may bring after `front` bytes.
  package func room(after front: Int) -> Int { max(0, capacity - front) }

  private func takeRoom(_ maximumCount: Int, after front: Int) -> UnsafeMutableRawBufferPointer {
    precondition(count == 0, "LandingArea: a read before the last bytes were wiped")
    precondition(front >= 0 && front < capacity, "LandingArea: no room after the front")
    return UnsafeMutableRawBufferPointer(
      start: region.start + front, count: min(maximumCount, capacity - front))
  }

  private mutating func arrived(_ received: Int, after front: Int) {
    count = front + received
    unfilledFront = front
  }

  /// Lends the bytes the last read left, read-only; valid only while `body` runs.
  package func withUnsafeBytes<Result: ~Copyable, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    precondition(unfilledFront == 0, "LandingArea: read before its front was filled")
    return try body(UnsafeRawBufferPointer(start: region.start, count: count))
  }

  /// Zeroes what the last read left (`sodium_memzero`), so the area is empty
  /// while its owner waits.
  package mutating func wipe() {
    guard count > 0 else { return }
    Sodium.zero(region.start, count: count)
    count = 0
    unfilledFront = 0
  }
}
