import Glibc

/// A program started with `posix_spawn`, its standard descriptors mapped to
/// descriptors the test owns.
final class ChildProcess {
  let processID: pid_t
  private var status: Int32?

  /// Starts `path` with `arguments`, `environment` (`NAME=value`), and the
  /// child's descriptors 0, 1 and 2 taken from `standardInput`,
  /// `standardOutput` and `standardError` (nil leaves it as ours). The test's
  /// other descriptors are not inherited where they are close-on-exec.
  /// The child starts with no signal blocked and each at its default action.
  init(
    _ path: String, arguments: [String] = [], environment: [String],
    standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (source, target) in [(standardInput, 0), (standardOutput, 1), (standardError, 2)] {
      if let source { posix_spawn_file_actions_adddup2(&actions, source, Int32(target)) }
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    // No signal blocked and every one at its default action, whatever the
    // test runner's thread has: the test runner blocks some (`SIGURG` among
    // them), and a child would inherit that mask.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &everySignal)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else { throw HarnessError(what: "posix_spawn \(path)", errno: result) }
    processID = pid
  }

  /// Waits for the child to end and returns its wait status.
  @discardableResult
  func wait() -> Int32 {
    if let status { return status }
    var raw: Int32 = 0
    while waitpid(processID, &raw, 0) < 0 && errno == EINTR {}
    status = raw
    return raw
  }

  /// The exit code, when the child exited normally.
  var exitCode: Int32? {
    let raw = wait()
    return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil
  }

  /// Waits for the child to end, at most `timeout` (a bound for a program
  /// that hangs, not a claim about its speed); true when it ended.
  func waitForEnd(timeout: Duration = .seconds(30)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !hasEnded {
      guard ContinuousClock.now < deadline else { return false }
      usleep(10_000)
    }
    return true
  }

  /// The signal that ended the child, when one did.
  var terminatingSignal: Int32? {
    let raw = wait()
    let signal = raw & 0x7F
    return signal != 0 && signal != 0x7F ? signal : nil
  }

  /// True when the child was ended by a signal and the kernel wrote a core
  /// dump for it (`WCOREDUMP`).
  var dumpedCore: Bool {
    terminatingSignal != nil && wait() & 0x80 != 0
  }

  /// True once the child has ended; reaps it then. Does not wait.
  var hasEnded: Bool {
    if status != nil { return true }
    var raw: Int32 = 0
    guard waitpid(processID, &raw, WNOHANG) == processID else { return false }
    status = raw
    return true
  }

  deinit {
    if status == nil {
      kill(processID, SIGKILL)
      wait()
    }
  }
}

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

/// A system call a test harness needed failed.
struct HarnessError: Error, CustomStringConvertible {
  let what: String
  let errno: Int32
  var description: String { "\(what): \(String(cString: strerror(errno)))" }
}
