import CSystemShims
import Glibc

/// The system calls the package's modules share, behind Swift names.
///
/// Each returns an ``Errno`` (or a Swift value) instead of a C return code.
/// What one module alone needs (termios for the terminal, `mprotect` for secure
/// memory, inotify for the agent) stays in that module's own `Internals`,
/// built on the same ``Errno``.
package enum System {
  /// The thread's `errno`.
  package static var errno: Int32 {
    get { Glibc.errno }
    set { Glibc.errno = newValue }
  }

  /// Closes `descriptor`, ignoring the result (Linux frees it even on `EINTR`).
  package static func close(_ descriptor: Int32) { _ = Glibc.close(descriptor) }

  /// True when `descriptor` is a terminal (`isatty`).
  package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// The value of the environment variable `name` (`getenv`), copied.
  package static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// This process's ID.
  package static var processID: Int32 { getpid() }

  /// `CLOCK_MONOTONIC` now, in microseconds.
  package static func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
  }

  /// A pipe made by `pipe2(2)`, its ends closed on `exec` (so a program
  /// another thread starts cannot hold an end open) and, with `nonBlocking`,
  /// non-blocking.
  package static func makePipe(
    nonBlocking: Bool = false
  ) -> Result<(read: Int32, write: Int32), Errno> {
    var ends: (Int32, Int32) = (-1, -1)
    let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    let made = withUnsafeMutableBytes(of: &ends) {
      secretfield_pipe2($0.baseAddress!.assumingMemoryBound(to: Int32.self), flags)
    }
    guard made == 0 else { return .failure(.current) }
    return .success((ends.0, ends.1))
  }
}
