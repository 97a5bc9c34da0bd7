import CSystemShims
import Glibc
import SystemCalls

/// Every libc call the terminal front end makes, behind Swift names.
///
/// The rest of the module never names a Glibc type or function: it goes through
/// here, and each function returns the `errno` (or a Swift value) instead of a C
/// return code, so turning a failure into a ``TerminalError`` happens in one step.
enum Platform {
  static var errno: Int32 { Glibc.errno }

  static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

  // MARK: Descriptors

  /// Opens a terminal for reading and writing without making it the controlling
  /// terminal and without leaking it across `exec`. Returns the descriptor or
  /// the errno.
  static func openTerminal(_ path: String) -> Result<Int32, Errno> {
    let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    return descriptor >= 0 ? .success(descriptor) : .failure(Errno(errno))
  }

  static func close(_ descriptor: Int32) { _ = Glibc.close(descriptor) }

  /// Lets another runnable process have this core now (`sched_yield(2)`).
  static func yieldProcessor() { _ = Glibc.sched_yield() }

  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Writes every byte, retrying short writes and `EINTR`; a terminal raises
  /// no `SIGPIPE`, so the signal mask is left alone.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
    System.writeAll(descriptor, bytes, blockingPipeSignal: false)
  }

  /// A pipe whose ends are non-blocking and closed on `exec`.
  static func makeNonBlockingPipe() -> Result<(read: Int32, write: Int32), Errno> {
    System.makePipe(nonBlocking: true)
  }

  /// Reads what is there from a non-blocking descriptor; 0 when nothing is
  /// (`EAGAIN`) or at end of file.
  static func readAvailable(_ descriptor: Int32, into bytes: UnsafeMutableRawBufferPointer) -> Int {
    guard let start = bytes.baseAddress else { return 0 }
    let got = secretfield_read_available(
      descriptor, start.assumingMemoryBound(to: UInt8.self), bytes.count, bytes.count)
    return max(0, got)
  }

  // MARK: Waiting

  /// Which of the watched descriptors are readable, after one `poll(2)`: bit
  /// `n` for the `n`th descriptor.
  struct PollResult {
    var readable: UInt8
    var interrupted: Bool

    func isReadable(_ position: Int) -> Bool { readable & (1 << position) != 0 }
  }

  /// Waits with `poll(2)` until `first`, `second` or `third` (nil: not
  /// watched) is readable (or hung up), the timeout passes (in milliseconds,
  /// -1 for none), or a signal interrupts.
  ///
  /// The requests are on the stack: the prompt waits here once per key, and a
  /// heap array per wait cost four allocations a key (`perf`).
  static func poll(
    _ first: Int32, _ second: Int32, _ third: Int32?, timeoutMilliseconds: Int32
  ) -> Result<PollResult, Errno> {
    let events = Int16(POLLIN)
    var requests = (
      pollfd(fd: first, events: events, revents: 0),
      pollfd(fd: second, events: events, revents: 0),
      pollfd(fd: third ?? -1, events: events, revents: 0)
    )
    let count: nfds_t = third == nil ? 2 : 3
    let ready = withUnsafeMutableBytes(of: &requests) {
      Glibc.poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), count, timeoutMilliseconds)
    }
    if ready < 0 {
      if errno == EINTR { return .success(PollResult(readable: 0, interrupted: true)) }
      return .failure(Errno(errno))
    }
    let signalled = Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL)
    var readable: UInt8 = 0
    if requests.0.revents & signalled != 0 { readable |= 1 }
    if requests.1.revents & signalled != 0 { readable |= 2 }
    if third != nil && requests.2.revents & signalled != 0 { readable |= 4 }
    return .success(PollResult(readable: readable, interrupted: false))
  }

  // MARK: Terminal attributes

  /// The termios of a terminal, kept opaque to the rest of the module.
  struct Attributes: Equatable {
    var raw: termios

    static func == (lhs: Attributes, rhs: Attributes) -> Bool {
      withUnsafeBytes(of: lhs.raw) { left in
        withUnsafeBytes(of: rhs.raw) { right in left.elementsEqual(right) }
      }
    }

    /// The prompt's raw mode derived from these attributes: no echo, no canonical
    /// line editing, no signal keys, no extended input processing, no CR/NL
    /// translation on input, no flow control, no stripping of the eighth bit;
    /// one byte satisfies a read. Output processing (`OPOST`, `ONLCR`) stays as
    /// it was.
    var rawMode: Attributes {
      var copy = raw
      copy.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
      copy.c_iflag &= ~tcflag_t(ICRNL | INLCR | IGNCR | IXON | ISTRIP)
      withUnsafeMutableBytes(of: &copy.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
      return Attributes(raw: copy)
    }

    /// True when the flags and control characters, what `tcsetattr` sets, are
    /// those of `other` (the speeds and line discipline aside).
    func hasSameModes(as other: Attributes) -> Bool {
      raw.c_iflag == other.raw.c_iflag && raw.c_oflag == other.raw.c_oflag
        && raw.c_cflag == other.raw.c_cflag && raw.c_lflag == other.raw.c_lflag
        && withUnsafeBytes(of: raw.c_cc) { mine in
          withUnsafeBytes(of: other.raw.c_cc) { mine.elementsEqual($0) }
        }
    }

    var isEchoing: Bool { raw.c_lflag & tcflag_t(ECHO) != 0 }
    var isCanonical: Bool { raw.c_lflag & tcflag_t(ICANON) != 0 }
  }

  static func getAttributes(_ descriptor: Int32) -> Result<Attributes, Errno> {
    var attributes = termios()
    return tcgetattr(descriptor, &attributes) == 0
      ? .success(Attributes(raw: attributes)) : .failure(Errno(errno))
  }

  /// Sets the attributes after the output is drained, discarding unread input
  /// (`TCSAFLUSH`): type-ahead typed while echo was on must not become part of
  /// the password, and replies that arrive after a restore must not be echoed.
  static func setAttributesFlushingInput(_ descriptor: Int32, _ attributes: Attributes) -> Errno? {
    // Not retried on EINTR: from a background process group the kernel answers
    // with a SIGTTOU (which the relay catches) and EINTR, and the caller must
    // stop rather than spin.
    var copy = attributes.raw
    return tcsetattr(descriptor, TCSAFLUSH, &copy) == 0 ? nil : Errno(errno)
  }

  /// Waits until everything written to the terminal has been transmitted
  /// (`tcdrain(3)`), retrying `EINTR`. Stops a background process by
  /// `SIGTTOU`: call it in the foreground only.
  static func drainOutput(_ descriptor: Int32) {
    while tcdrain(descriptor) < 0 && errno == EINTR {}
  }

  /// The window size of a terminal (`TIOCGWINSZ`), or nil when it reports none.
  static func windowSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// True when this process's group is the terminal's foreground group, the only
  /// group that may change its modes without being stopped by `SIGTTOU`.
  static func isForeground(_ descriptor: Int32) -> Bool {
    tcgetpgrp(descriptor) == getpgrp()
  }

  // MARK: Signals

  /// A disposition as `sigaction(2)` holds it, kept opaque.
  struct Disposition {
    var raw: sigaction

    /// True when the disposition was "ignore": a shell started us with the
    /// signal ignored (`nohup`, a background job without job control), and we
    /// keep it that way.
    var isIgnore: Bool {
      unsafeBitCast(raw.__sigaction_handler.sa_handler, to: Int.self)
        == unsafeBitCast(SIG_IGN, to: Int.self)
    }
  }

  /// Installs `handler` for `signal` with every relayed signal blocked while it
  /// runs and without `SA_RESTART` (so `poll` returns `EINTR` at once); returns
  /// the previous disposition.
  static func installHandler(
    _ handler: @convention(c) (Int32) -> Void, for signal: Int32, blocking others: [Int32]
  ) -> Disposition {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    for other in others { sigaddset(&action.sa_mask, other) }
    action.sa_flags = 0
    var previous = sigaction()
    sigaction(signal, &action, &previous)
    return Disposition(raw: previous)
  }

  static func restoreDisposition(_ disposition: Disposition, for signal: Int32) {
    var action = disposition.raw
    sigaction(signal, &action, nil)
  }

  static func currentDisposition(of signal: Int32) -> Disposition {
    var current = sigaction()
    sigaction(signal, nil, &current)
    return Disposition(raw: current)
  }

  /// Sets the default action for `signal`, unblocks it, and sends it to this
  /// thread (`raise`). For a fatal signal this does not return; for a stop
  /// signal it returns when the process is continued.
  static func raiseWithDefaultAction(_ signal: Int32) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
  }

  /// Sends `signal` to this process's group (`kill(0, signal)`), as the
  /// terminal driver sends `SIGTSTP` for the suspend key to the whole job.
  static func signalProcessGroup(_ signal: Int32) {
    _ = kill(0, signal)
  }

  /// Ends the process at once with `status`, without running exit handlers.
  static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

  /// The signal handler's one action: write one byte to the relay pipe. Only
  /// async-signal-safe calls here.
  static func writeSignalByte(_ descriptor: Int32, _ byte: inout UInt8) {
    _ = Glibc.write(descriptor, &byte, 1)
  }

  static func setErrno(_ value: Int32) { Glibc.errno = value }

  // MARK: Environment

  static func environmentValue(_ name: String) -> String? { System.environmentValue(name) }
}
