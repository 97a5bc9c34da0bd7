/// One open window on a ``SecureBuffer``: where its bytes are while it lasts,
/// and what closing it must undo.
///
/// For a guarded buffer the bytes are the buffer's own, opened by a protection
/// change (the whole region, or only `pages` of it). For a sealed buffer they
/// are a slot of the calling thread's scratch, holding the plaintext the
/// window opened, wiped as the window closes.
struct BufferWindow {
  /// Where the bytes start.
  let start: UnsafeMutableRawPointer
  /// How many bytes from `start` the window's holder may touch.
  let room: Int
  /// The pages of a partial write window on a region of its own.
  let pages: Range<Int>?
  /// The scratch slot of a sealed buffer's window.
  let scratch: ScratchStack.Slot?
}

extension SecureBuffer {
  /// Opens a read window: the pages readable, or the sealed bytes decrypted
  /// into the thread's scratch.
  ///
  /// - Throws: ``SecureMemoryError`` for a sealed buffer whose ciphertext
  ///   does not authenticate (`SecureMemoryError.Code.sealedSecretAltered`),
  ///   or when the thread's scratch cannot be mapped; never for a guarded one.
  @inline(__always)
  func openRead() throws(SecureMemoryError) -> BufferWindow {
    guard case .sealed(let slot) = region else {
      gate.openRead(region)
      return BufferWindow(start: region.start, room: count, pages: nil, scratch: nil)
    }
    let scratch = try Sealing.open(slot, count: count, room: count)
    return BufferWindow(start: scratch.start, room: count, pages: nil, scratch: scratch)
  }

  /// Closes a window ``openRead()`` opened.
  @inline(__always)
  func closeRead(_ window: BufferWindow) {
    guard let scratch = window.scratch else {
      gate.closeRead(region)
      return
    }
    Sealing.close(scratch, wiping: window.room)
  }

  /// Opens a read-write window for an edit that touches bytes before
  /// `extent` at most (the whole capacity by default), over only the pages
  /// of `bytes` where that is fewer than all of a region of its own.
  ///
  /// A sealed buffer's window is a scratch slot of `extent` bytes, its
  /// ``count`` bytes decrypted into it and the rest zeros; the edit must end
  /// with ``closeWrite(_:count:)``, which seals it again.
  ///
  /// - Throws: as ``openRead()``.
  @inline(__always)
  func openWrite(
    touching extent: Int? = nil, over bytes: Range<Int>? = nil
  ) throws(SecureMemoryError) -> BufferWindow {
    guard case .sealed(let slot) = region else {
      if let bytes {
        let pages = gate.openWrite(region, bytes: bytes)
        return BufferWindow(start: region.start, room: capacity, pages: pages, scratch: nil)
      }
      gate.openWrite(region)
      return BufferWindow(start: region.start, room: capacity, pages: nil, scratch: nil)
    }
    let room = min(capacity, max(extent ?? capacity, count))
    let scratch = try Sealing.open(slot, count: count, room: room, forSealing: true)
    return BufferWindow(start: scratch.start, room: room, pages: nil, scratch: scratch)
  }

  /// Closes a window ``openWrite(touching:over:)`` opened, the buffer now
  /// holding `newCount` bytes: a sealed buffer's are sealed again under a new
  /// nonce, and the scratch wiped.
  @inline(__always)
  mutating func closeWrite(_ window: BufferWindow, count newCount: Int) {
    precondition(newCount <= window.room, "SecureBuffer: more bytes than the window held")
    guard let scratch = window.scratch, case .sealed(let slot) = region else {
      gate.closeWrite(region, pages: window.pages)
      count = newCount
      return
    }
    Sealing.seal(slot, from: scratch, count: newCount)
    Sealing.close(scratch, wiping: window.room)
    count = newCount
  }
}
