import Glibc
import TestSupport

/// A pseudo-terminal pair: the test holds the master, a program under test
/// opens the slave by its name. The test keeps the slave open too, as the
/// shell of a real terminal does, so a program that opens and closes it more
/// than once never leaves it with no opener (the master would read `EIO`).
final class PseudoTerminal {
  let master: Int32
  let slaveName: String
  private var slave: Int32 = -1
  /// Everything the program has drawn so far.
  private(set) var screen: [UInt8] = []

  init() throws {
    // What posix_openpt, unlockpt and ptsname do, which Glibc's module does not
    // export: open the multiplexer, unlock the slave (TIOCSPTLCK), ask its
    // number (TIOCGPTN). grantpt has nothing to do with devpts.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { throw HarnessError(what: "open /dev/ptmx", errno: errno) }
    var locked: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, UInt(0x4004_5431), &locked) == 0,
      ioctl(master, UInt(0x8004_5430), &number) == 0
    else {
      let failure = errno
      close(master)
      throw HarnessError(what: "unlocking the pseudo-terminal", errno: failure)
    }
    slaveName = "/dev/pts/\(number)"
    slave = open(slaveName, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      let failure = errno
      close(master)
      throw HarnessError(what: "open \(slaveName)", errno: failure)
    }
  }

  /// Reads what the program drew, waiting up to `timeout` milliseconds for the
  /// first bytes; returns false when nothing came.
  @discardableResult
  func drain(timeout: Int32) -> Bool {
    var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    var got = false
    var wait = timeout
    while poll(&request, 1, wait) > 0 {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      screen += chunk[0..<count]
      got = true
      wait = 0
    }
    return got
  }

  /// Drains until the screen shows `text`, for at most `attempts` waits of a
  /// tenth of a second each (a bound for a broken program, not a timing claim).
  func waitForScreen(containing text: String, attempts: Int = 100) -> Bool {
    let needle = Array(text.utf8)
    for _ in 0..<attempts {
      if screen.firstRange(of: needle) != nil { return true }
      drain(timeout: 100)
    }
    return screen.firstRange(of: needle) != nil
  }

  deinit {
    close(slave)
    close(master)
  }
}
