import CSodium

/// The only place in the package that calls libsodium.
///
/// Every function is a thin, named wrapper: callers in `SecureMemory` never see a
/// libsodium name, and nothing here knows about `SecureBuffer`'s bookkeeping.
enum Sodium {
  /// Runs `sodium_init()` exactly once, on first use, from whichever thread gets
  /// there first. A global `let` is initialised under `swift_once`.
  static func ensureInitialized() throws(SecureMemoryError) {
    if case .failure(let error) = initialization { throw error }
  }

  private static let initialization: Result<Void, SecureMemoryError> = {
    // 0: initialised now; 1: already initialised; -1: failure.
    sodium_init() >= 0 ? .success(()) : .failure(.libsodiumUnavailable())
  }()

  /// Wraps `sodium_malloc`: guard page before, guard page after, canary, `mlock`,
  /// `MADV_DONTDUMP`. Returns nil with `errno` set when the mapping fails.
  static func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
    sodium_malloc(size)
  }

  /// Wraps `sodium_free`: checks the canary (SIGSEGV when it was overwritten),
  /// zeroes the data pages, unlocks and unmaps them.
  static func free(_ pointer: UnsafeMutableRawPointer) {
    sodium_free(pointer)
  }

  /// Wraps `sodium_mprotect_noaccess`. True when the kernel applied it.
  static func protectNoAccess(_ pointer: UnsafeMutableRawPointer) -> Bool {
    sodium_mprotect_noaccess(pointer) == 0
  }

  /// Wraps `sodium_mprotect_readonly`. True when the kernel applied it.
  static func protectReadOnly(_ pointer: UnsafeMutableRawPointer) -> Bool {
    sodium_mprotect_readonly(pointer) == 0
  }

  /// Wraps `sodium_mprotect_readwrite`. True when the kernel applied it.
  static func protectReadWrite(_ pointer: UnsafeMutableRawPointer) -> Bool {
    sodium_mprotect_readwrite(pointer) == 0
  }

  /// Wraps `sodium_memzero`: a wipe the compiler may not remove.
  static func zero(_ pointer: UnsafeMutableRawPointer, count: Int) {
    sodium_memzero(pointer, count)
  }

  /// Wraps `sodium_memcmp`: time depends on `count` only, never on the bytes.
  static func constantTimeEqual(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int
  ) -> Bool {
    sodium_memcmp(lhs, rhs, count) == 0
  }

  /// Wraps `sodium_stackzero`: clears `count` bytes of stack below the caller,
  /// where an optimised loop over secret bytes may have spilled them.
  static func zeroStack(_ count: Int) {
    sodium_stackzero(count)
  }

  /// The canary `sodium_malloc` places right before the user pointer.
  static let canaryCount = 16
}
