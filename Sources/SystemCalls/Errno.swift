import Glibc

/// An `errno` value a system call reported, with the C library's words for it.
///
/// The one error type of the package's system layer: every wrapper in
/// ``System`` returns it (or nil) instead of a C return code, so a module turns
/// a failure into its own error in one step.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The raw value, as in `EINTR`.
  package let code: Int32

  package init(_ code: Int32) { self.code = code }

  /// The thread's `errno` now.
  package static var current: Errno { Errno(Glibc.errno) }

  /// The C library's words for the code (`strerror`).
  package var description: String { String(cString: strerror(code)) }

  /// `ENOENT`: no such file (for `posix_spawnp`: the program is not on `PATH`).
  package static let noSuchFile = Errno(ENOENT)
  /// `EPIPE`: the reading end of a pipe or socket is closed.
  package static let brokenPipe = Errno(EPIPE)
  /// `EINTR`: a signal interrupted the call.
  package static let interrupted = Errno(EINTR)
  /// `EAGAIN`: a non-blocking call would have blocked.
  package static let wouldBlock = Errno(EAGAIN)
  /// `EIO`: what `read(2)` reports once a terminal has hung up.
  package static let inputOutput = Errno(EIO)
  /// `EFBIG`: more than the caller's limit.
  package static let fileTooBig = Errno(EFBIG)
  /// `ELOOP`: a symbolic link where none is followed.
  package static let tooManyLinks = Errno(ELOOP)
  /// `ECHILD`: no child to wait for.
  package static let noChild = Errno(ECHILD)
}
