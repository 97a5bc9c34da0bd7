import Synchronization

/// The slots of one size of a ``SecureArena``: which slabs have room, under one
/// lock, and when a slab is mapped or returned.
///
/// A slot comes from the slab that has room and was listed last, so slabs fill
/// up before a new one is mapped. A slab whose last slot is freed goes back to
/// the system at once (`sodium_free`), unless it is the only room left in the
/// class: then it stays as the one spare, so that one secret made and dropped
/// over and over does not map and unmap 64 KiB each time, and goes as soon as
/// another slab has room.
///
/// A forked child never takes a slot from a slab it inherited (there its pages
/// are zeros, or for secret memory not mapped at all): its first allocation
/// forgets the parent's slabs and maps slabs of its own.
final class ArenaSizeClass: Sendable {
  let layout: ArenaLayout
  private let state = Mutex(State())

  private struct State {
    /// The process the lists below belong to.
    var owner = Kernel.processID
    /// Slabs with both a slot handed out and a slot free.
    var available: [ArenaSlab] = []
    /// An empty slab kept while no other slab has room.
    var spare: ArenaSlab?
    /// Every slab of the class: the available ones, the spare and the full.
    var slabCount = 0
  }

  init(layout: ArenaLayout) {
    self.layout = layout
  }

  /// How many slabs the class holds now.
  var slabCount: Int { state.withLock { $0.slabCount } }

  /// Hands out a free slot, mapping a new slab when no slab has room.
  ///
  /// - Complexity: O(1) and no system call while a slab has room; a new slab
  ///   costs one `sodium_malloc` of 64 KiB, its verification and its wipe.
  /// - Throws: ``SecureMemoryError`` when a new slab is needed and cannot be
  ///   had (the lock limit, the mapping limit); the slots handed out stay valid.
  func allocate() throws(SecureMemoryError) -> ArenaSlot {
    try state.withLock { state throws(SecureMemoryError) -> ArenaSlot in
      if state.owner != Kernel.processID { state = State() }
      let slab: ArenaSlab
      if let last = state.available.last {
        slab = last
      } else if let spare = state.spare {
        slab = spare
        state.spare = nil
        state.available.append(slab)
      } else {
        slab = try ArenaSlab(layout: layout)
        state.slabCount += 1
        state.available.append(slab)
      }
      let (slot, isNowFull) = slab.takeSlot()!
      if isNowFull { state.available.removeLast() }
      return ArenaSlot(sizeClass: self, slab: slab, slot: slot)
    }
  }

  /// Wipes `slot` and takes it back; returns its slab to the system when that
  /// was its last slot and other room is left.
  func free(_ slot: ArenaSlot) {
    // An inherited slot in a forked child: nothing there to wipe, and the slab
    // is never handed out again in this process.
    guard slot.slab.ownerProcess == Kernel.processID else { return }
    // The slab, if it goes, is unmapped when its last reference drops, after
    // the lock is released.
    let released: ArenaSlab? = state.withLock { state in
      let slab = slot.slab
      let live = slab.returnSlot(slot.slot)
      if live == layout.slotsPerSlab - 1 {
        // It was full: it has room again, and a spare is no longer needed.
        state.available.append(slab)
        if live > 0, let spare = state.spare {
          state.spare = nil
          state.slabCount -= 1
          return spare
        }
      }
      guard live == 0 else { return nil }
      state.available.removeAll { $0 === slab }
      if state.available.isEmpty && state.spare == nil {
        state.spare = slab
        return nil
      }
      state.slabCount -= 1
      return slab
    }
    withExtendedLifetime(released) {}
  }
}

/// One slot handed out by a size class: where it is, and the slab and class it
/// goes back to.
struct ArenaSlot: Sendable {
  let sizeClass: ArenaSizeClass
  let slab: ArenaSlab
  let slot: Int

  /// Where the slot's bytes start.
  var start: UnsafeMutableRawPointer { slab.start(of: slot) }
  /// How many bytes it holds: its class's size.
  var capacity: Int { sizeClass.layout.slotSize }

  func openWindow(writable: Bool) { slab.openWindow(on: slot, writable: writable) }
  func closeWindow(writable: Bool) { slab.closeWindow(on: slot, writable: writable) }

  /// Wipes the slot and gives it back to its class.
  func free() { sizeClass.free(self) }
}
