import Synchronization

/// One slab of a ``SecureArena``: a single guarded, locked allocation holding
/// the slots of one size class, with a count of open windows for each of its
/// pages.
///
/// The memory is one region (``GuardedRegion``) of the arena's storage,
/// `sodium_malloc` or a `memfd_secret` file (``SecretMemoryRegion``: one
/// descriptor per slab, closed once mapped), verified as a `SecureBuffer`'s
/// is: guard pages before and after, locked, excluded from core dumps, kept
/// from a forked child (`MADV_WIPEONFORK` for sodium memory; `MADV_DONTFORK`
/// for secret memory, a shared mapping that a child would otherwise share),
/// no-access. A page becomes readable when the first window on any slot of it
/// opens and no-access again only when the last one closes; a write window makes it read-write while it is open. The counts and
/// the `mprotect` calls change under one lock, so no window's closing can make a
/// page no-access under another's open window.
///
/// Each page of the slab is a mapping of its own: every other page carries a
/// mark its neighbours lack (`MADV_NOHUGEPAGE`, meaningless for 4 KiB ranges),
/// so the kernel never merges them. A window's `mprotect` then changes one
/// whole mapping, as a buffer of its own does, instead of splitting the slab's
/// mapping and merging it back (three times the cost, measured), and needs no
/// free entry in the table of mappings. The price: 16 mappings per slab, about
/// 0.014 per 32-byte secret. Where the kernel refuses the mark, windows split
/// the mapping instead, and are slower. The same holds for a secret-memory
/// slab: its file mapping is split by the marks just as an anonymous one is
/// (measured: a split-and-merge `mprotect` pair on it costs 2.4 times a
/// whole-mapping pair).
///
/// The slab does not know which slots are handed out beyond a stack of free
/// ones; ``ArenaSizeClass`` decides which slab to take a slot from, under its
/// own lock, and returns the slab when it is empty.
final class ArenaSlab: @unchecked Sendable {
  // Sendable: the region's pages are touched only inside windows that `state`'s
  // lock opened, and `state` holds everything that changes.
  let region: GuardedRegion
  let layout: ArenaLayout
  /// What holds for every slot of the slab, verified when it was mapped.
  let protection: Protection
  /// The process that mapped the slab; in a forked child the pages read as
  /// zeros (`MADV_WIPEONFORK`), canaries included, or are not mapped at all
  /// (secret memory, `MADV_DONTFORK`), so neither the canaries are checked nor
  /// the region freed there, and an `mprotect` that finds nothing there is
  /// not an error.
  let ownerProcess: Int32
  /// log2 of the page size: a slot's pages by shifting, not dividing.
  private let pageShift = Kernel.pageSize.trailingZeroBitCount
  private let state: Mutex<State>

  private struct State {
    /// Open read windows per page.
    var readers: [Int32]
    /// Open write windows per page.
    var writers: [Int32]
    /// The slots not handed out, the next one to hand out last.
    var freeSlots: [Int32]
  }

  /// Maps a slab for `layout`'s size class, wipes it and writes every canary.
  ///
  /// - Throws: ``SecureMemoryError`` when the region cannot be had with every
  ///   protection: `lockFailed` at `RLIMIT_MEMLOCK`, `guardPagesMissing` or
  ///   `allocationFailed` at `vm.max_map_count`.
  init(layout: ArenaLayout) throws(SecureMemoryError) {
    let (region, protection) = try GuardedRegion.allocate(
      minimumCapacity: ArenaLayout.slabSize - Sodium.canaryCount, policy: .required,
      storage: layout.storage)
    self.region = region
    self.layout = layout
    self.protection = protection
    self.ownerProcess = Kernel.processID
    let pages = region.dataPagesCount / Kernel.pageSize
    let slots = layout.slotsPerSlab
    state = Mutex(
      State(
        readers: Array(repeating: 0, count: pages), writers: Array(repeating: 0, count: pages),
        freeSlots: (0..<Int32(slots)).reversed()))
    // sodium_malloc fills the bytes with 0xdb; a fresh slot must read as zeros.
    // The region's own canary, before the first slot, is left as it is.
    precondition(region.protectReadWrite(), "SecureArena: mprotect on a new slab failed")
    region.zero()
    for slot in 0..<slots { layout.canary.write(at: canaryAfter(slot)) }
    precondition(region.protectNoAccess(), "SecureArena: mprotect on a new slab failed")
    for page in stride(from: 1, to: pages, by: 2) {
      if Kernel.keepFromMerging(region.dataPages + page * Kernel.pageSize, Kernel.pageSize) != nil {
        break
      }
    }
  }

  deinit {
    if ownerProcess == Kernel.processID { region.free() }
  }

  /// Where `slot`'s bytes start.
  func start(of slot: Int) -> UnsafeMutableRawPointer {
    region.start + slot * layout.stride
  }

  private func canaryAfter(_ slot: Int) -> UnsafeMutableRawPointer {
    start(of: slot) + layout.slotSize
  }

  /// How many slots are handed out.
  var liveCount: Int { state.withLock { layout.slotsPerSlab - $0.freeSlots.count } }

  /// Hands out a free slot, or nil when the slab is full; the caller holds the
  /// size class's lock.
  func takeSlot() -> (slot: Int, isNowFull: Bool)? {
    state.withLock { state in
      guard let slot = state.freeSlots.popLast() else { return nil }
      return (Int(slot), state.freeSlots.isEmpty)
    }
  }

  /// Checks `slot`'s canaries, wipes it and takes it back; the caller holds the
  /// size class's lock. Returns how many slots are still handed out.
  ///
  /// The wipe opens the slot's pages read-write for its duration, unless a
  /// window already has them so: two `mprotect` calls at most.
  func returnSlot(_ slot: Int) -> Int {
    state.withLock { state in
      if ownerProcess == Kernel.processID {
        open(slot, writable: true, &state)
        checkCanaries(around: slot)
        Sodium.zero(start(of: slot), count: layout.slotSize)
        close(slot, writable: true, &state)
      }
      state.freeSlots.append(Int32(slot))
      return layout.slotsPerSlab - state.freeSlots.count
    }
  }

  /// Opens a window on `slot`: its pages readable (or read-write) until the
  /// matching ``closeWindow(on:writable:)``.
  ///
  /// In a forked child a sodium slab's window opens on zeros; a secret-memory
  /// slab has no pages there, so its window changes nothing and a touch faults
  /// (`SIGSEGV`), as on a guard page.
  func openWindow(on slot: Int, writable: Bool) {
    state.withLock { open(slot, writable: writable, &$0) }
  }

  /// Closes a window on `slot`: checks the canaries on both sides of it, then
  /// makes each of its pages no-access (or read-only) if no other window holds
  /// it open.
  func closeWindow(on slot: Int, writable: Bool) {
    state.withLock { state in
      if ownerProcess == Kernel.processID { checkCanaries(around: slot) }
      close(slot, writable: writable, &state)
    }
  }

  /// Traps, naming the arena and the size class, when either canary beside
  /// `slot` was overwritten: by a write past the end of `slot` or of the slot
  /// before it. The pages hold a window open while this runs.
  private func checkCanaries(around slot: Int) {
    let before = slot > 0 && !layout.canary.isIntact(at: canaryAfter(slot - 1))
    let after = !layout.canary.isIntact(at: canaryAfter(slot))
    if before || after {
      fatalError(
        "SecureArena \"\(layout.arenaName)\": the canary \(after ? "after" : "before") a slot "
          + "of size class \(layout.slotSize) was overwritten, by a write past the end of a "
          + "secret of \(layout.slotSize) bytes or less; ending the process")
    }
  }

  private func open(_ slot: Int, writable: Bool, _ state: inout State) {
    count(slot, writable: writable, by: 1, &state)
  }

  private func close(_ slot: Int, writable: Bool, _ state: inout State) {
    count(slot, writable: writable, by: -1, &state)
  }

  /// Adds `delta` to the window count of each page `slot`'s window covers (one
  /// or two) and changes the protection of those whose access changed, in one
  /// `mprotect` where both did and agree.
  private func count(_ slot: Int, writable: Bool, by delta: Int32, _ state: inout State) {
    let offset = layout.windowOffset(of: slot)
    let first = offset >> pageShift
    let last = (offset + layout.windowCount - 1) >> pageShift
    var pending: (first: Int, last: Int, access: Kernel.PageAccess)?
    for page in first...last {
      let before = Self.access(of: page, in: state)
      if writable { state.writers[page] += delta } else { state.readers[page] += delta }
      let after = Self.access(of: page, in: state)
      guard before != after else { continue }
      if let run = pending, run.access == after {
        pending?.last = page
      } else {
        if let run = pending { protect(run) }
        pending = (page, page, after)
      }
    }
    if let run = pending { protect(run) }
  }

  private static func access(of page: Int, in state: State) -> Kernel.PageAccess {
    state.writers[page] > 0 ? .readWrite : state.readers[page] > 0 ? .readOnly : .none
  }

  private func protect(_ run: (first: Int, last: Int, access: Kernel.PageAccess)) {
    let failure = Kernel.protect(
      region.dataPages + (run.first << pageShift), (run.last - run.first + 1) << pageShift,
      run.access)
    // Only where the pages could not be kept apart does a page's protection
    // change split a mapping, which needs a free entry in the process's table
    // of mappings. Going on with the wrong protection would either fault the
    // reader or leave secrets open.
    // In a forked child a secret-memory slab is not mapped (`MADV_DONTFORK`):
    // `mprotect` finds nothing there (ENOMEM), and a touch faults.
    if let failure, ownerProcess == Kernel.processID {
      fatalError(
        "SecureArena \"\(layout.arenaName)\": mprotect on a slab page failed "
          + "(\(Kernel.describe(failure))); the process is out of memory mappings "
          + "(vm.max_map_count)")
    }
  }
}
