import Glibc

/// One stack wipe for code whose callees wipe the stack too: while the scope
/// is open on this thread, ``wipeStack(byteCount:)`` notes how deep it would
/// have wiped instead of wiping, and ``end()`` makes one wipe that reaches
/// the deepest of them (and at least `byteCount` bytes below the caller).
///
/// For a decoder that hands a key to a field's edit inside its window: both
/// read secret bytes in Swift and both wiped 16 KiB after, the edit's wipe
/// inside the decoder's. One wipe of the same reach costs half (about 0.2 µs
/// a key, measured in `key_path_append`).
///
/// Scopes nest: an inner one's wipe is noted in the outer one. Call ``end()``
/// once, on every path out (`defer`), on the thread that began the scope.
package struct StackWipeScope: ~Copyable {
  /// What the thread's slot held before: the scope that encloses this one.
  private let enclosing: UnsafeMutableRawPointer?
  private let byteCount: Int

  /// Opens a scope on this thread; `byteCount` is the least its wipe reaches.
  package init(byteCount: Int = 16 * 1024) {
    self.byteCount = byteCount
    enclosing = pthread_getspecific(Self.slot)
    pthread_setspecific(Self.slot, Self.nothingNoted)
  }

  /// Closes the scope and wipes the stack below the caller, down to the
  /// deepest wipe noted inside it and at least `byteCount` bytes.
  package func end() {
    let noted = pthread_getspecific(Self.slot)
    pthread_setspecific(Self.slot, enclosing)
    var reach = byteCount
    if let noted, noted != Self.nothingNoted {
      let here = Self.stackAddress()
      let lowest = UInt(bitPattern: noted)
      if here > lowest { reach = max(reach, Int(here - lowest)) }
    }
    wipeStack(byteCount: reach)
  }

  /// Notes a wipe of `byteCount` bytes below the caller in the scope open on
  /// this thread; false when none is open (the caller wipes).
  static func note(_ byteCount: Int) -> Bool {
    guard let noted = pthread_getspecific(slot) else { return false }
    let here = stackAddress()
    let lowest = here > UInt(byteCount) ? here - UInt(byteCount) : 1
    if noted == nothingNoted || lowest < UInt(bitPattern: noted) {
      pthread_setspecific(slot, UnsafeRawPointer(bitPattern: lowest))
    }
    return true
  }

  /// The thread's slot: nil when no scope is open, ``nothingNoted`` when one
  /// is open with no wipe noted, else the lowest address a noted wipe reaches.
  private static let slot: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "StackWipeScope: no thread-specific key")
    return key
  }()

  /// No real wipe reaches the top of the address space.
  private static var nothingNoted: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: UInt.max)!
  }

  /// An address in the caller's frame (a local of this function, which is
  /// not inlined, so it lies just below the caller).
  @inline(never)
  private static func stackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }
}
