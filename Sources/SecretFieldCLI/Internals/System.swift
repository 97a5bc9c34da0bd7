import Glibc

/// Every libc call the commands make, behind Swift names; the rest of the
/// module names no Glibc function.
enum System {
  /// True when `descriptor` is a terminal (`isatty`).
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Writes all of `text` to `descriptor`, retrying short writes and `EINTR`.
  /// Returns the errno on failure. Only for what is not secret.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      guard var next = bytes.baseAddress else { return nil }
      var remaining = bytes.count
      while remaining > 0 {
        let written = Glibc.write(descriptor, next, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        next += written
        remaining -= written
      }
      return nil
    }
  }

  /// The text of a small file that holds nothing secret (a password hash), at
  /// most `limit` bytes; the errno when it cannot be read, or `EFBIG` when it
  /// is longer.
  static func readSmallFile(_ path: String, limit: Int) -> Result<String, SystemError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(SystemError(errno)) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(SystemError(errno))
      }
      if got == 0 { break }
      bytes += chunk[..<got]
      if bytes.count > limit { return .failure(SystemError(EFBIG)) }
    }
    return .success(String(decoding: bytes, as: UTF8.self))
  }

  /// The value of the environment variable `name` (`getenv`).
  static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Returns once the parent process has ended (this process was handed to
  /// another parent), looking once a second; a signal's default action ends
  /// the process meanwhile.
  static func waitWhileParentLives() {
    let parent = getppid()
    while getppid() == parent { sleep(1) }
  }

  /// Stops this process (`SIGSTOP`) until it is continued.
  static func stopThisProcess() { _ = raise(SIGSTOP) }

  /// Ends the process with `status`, running exit handlers.
  static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// An `errno` from a call the commands made, with the C library's words for it.
struct SystemError: Error {
  var code: Int32
  init(_ code: Int32) { self.code = code }
  var description: String { String(cString: strerror(code)) }
}
