import Glibc

/// The raw kernel calls `SecureMemory` makes itself, named for what they do.
///
/// Each returns the `errno` on failure instead of a C return code, so callers
/// turn it into a `SecureMemoryError` in one step.
enum Kernel {
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  static var errno: Int32 { Glibc.errno }

  static func lock(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    mlock(start, count) == 0 ? nil : errno
  }

  static func excludeFromCoreDumps(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_DONTDUMP) == 0 ? nil : errno
  }

  static func wipeOnFork(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    madvise(start, count, MADV_WIPEONFORK) == 0 ? nil : errno
  }

  /// `mprotect(PROT_NONE)` on a page that should already be a guard page. On a
  /// guard page that exists it changes nothing and succeeds; where the guard was
  /// never applied, it needs a new mapping and fails when none is left.
  static func protectNone(_ start: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    mprotect(start, count, PROT_NONE) == 0 ? nil : errno
  }

  static var processID: Int32 { getpid() }

  /// The soft `RLIMIT_MEMLOCK` in bytes, or nil when unlimited.
  static var lockedMemoryLimit: UInt64? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0,
      limit.rlim_cur != rlim_t.max
    else { return nil }
    return UInt64(limit.rlim_cur)
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
