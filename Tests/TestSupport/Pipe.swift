import Glibc
import Testing

/// A pipe whose ends close when the test is done with them.
public final class Pipe {
  /// The end to read from, or -1 once closed.
  public var readEnd: Int32
  /// The end to write to, or -1 once closed.
  public var writeEnd: Int32

  /// A pipe that holds `capacity` bytes, so a session can run to its end
  /// before the test reads what it wrote.
  public init(capacity: Int32 = 1 << 20) throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    // Close-on-exec, so a spawned program inherits only the ends mapped to its
    // standard descriptors. (pipe2 would do it atomically; Glibc's module does
    // not export it.)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    writeEnd = ends[1]
    // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc's module does not export.
    _ = fcntl(writeEnd, 1031, capacity)
  }

  /// Writes all of `bytes`; traps when the pipe is closed.
  public func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(writeEnd, $0.baseAddress! + offset, $0.count - offset)
      }
      precondition(written > 0, "Pipe: write failed")
      offset += written
    }
  }

  /// Everything up to end of file; close the write end first.
  public func receiveAll() -> [UInt8] {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let got = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      received += chunk[0..<got]
    }
    return received
  }

  /// Closes the read end, once.
  public func closeReadEnd() {
    if readEnd >= 0 { close(readEnd) }
    readEnd = -1
  }

  /// Closes the write end, once: the reader then sees end of file.
  public func closeWriteEnd() {
    if writeEnd >= 0 { close(writeEnd) }
    writeEnd = -1
  }

  deinit {
    closeReadEnd()
    closeWriteEnd()
  }
}

/// Puts `SIGPIPE` back to its default action and returns the write end of a
/// pipe whose read end is closed: a write there fails with `EPIPE` and, but
/// for a program's own handling, raises `SIGPIPE`. For exit-test children.
public func writeEndWithNoReader() -> Int32 {
  signal(SIGPIPE, SIG_DFL)
  var ends: [Int32] = [-1, -1]
  _ = pipe(&ends)
  close(ends[0])
  return ends[1]
}
