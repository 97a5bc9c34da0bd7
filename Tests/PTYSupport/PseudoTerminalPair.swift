import Glibc
import TestSupport

/// A bare pseudo-terminal opened in the test process, for unit tests of code
/// that takes a terminal path: no session, no emulator. Reading the master shows
/// the exact bytes written to the slave.
public final class PseudoTerminalPair {
  /// The master side's descriptor.
  public let master: Int32
  /// The slave side's path, as `/dev/pts/4`.
  public let slavePath: String
  /// A descriptor on the slave, opened without making it a controlling terminal;
  /// it keeps the slave open so the master never reads EIO.
  public let slave: Int32

  /// Opens `/dev/ptmx` and unlocks its slave.
  public init() throws {
    // posix_openpt and friends are hidden from Swift behind _XOPEN_SOURCE; these
    // are the ioctls they wrap (_IOW/_IOR macros, which Swift cannot import:
    // the values of the generic ioctl encoding, as on x86-64 and arm64).
    let TIOCSPTLCK: UInt = 0x4004_5431
    let TIOCGPTN: UInt = 0x8004_5430
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0,
      ioctl(master, TIOCGPTN, &number) == 0
    else {
      throw HarnessError("/dev/ptmx: \(String(cString: strerror(errno)))")
    }
    slavePath = "/dev/pts/\(number)"
    slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      throw HarnessError("open \(slavePath): \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    close(slave)
    close(master)
  }

  /// The slave's termios now.
  public func attributes() throws -> TerminalAttributes {
    try TerminalAttributes.read(from: slave)
  }

  /// Everything written to the slave that the master has not read yet.
  public func readOutput() -> [UInt8] {
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&request, 1, 0) > 0 else { return output }
      let got = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      guard got > 0 else { return output }
      output += chunk[..<got]
    }
  }

  /// Types `bytes` into the master, as a keyboard would.
  public func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }
}
