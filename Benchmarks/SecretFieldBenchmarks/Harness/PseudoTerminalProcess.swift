import Glibc

/// A program run in a new session on a new 80x24 pseudo-terminal, for the
/// terminal benchmarks: what it draws is read from the master side as raw
/// bytes and searched for a prompt or a mask glyph.
///
/// The master is drained continuously by every wait (a program blocked on a
/// full pty buffer would stall the figure). Searching the raw stream is enough
/// to time when bytes appear; tests, which must say what the screen shows, use
/// an emulator instead.
///
/// Lifecycle: `init` opens the terminal (untimed), ``launch()`` spawns the
/// program (timed by the startup benchmarks), ``end()`` kills its process
/// group and reaps it (untimed).
final class PseudoTerminalProcess {
  /// Where the program's standard descriptors go.
  enum Wiring {
    /// Standard input and error on the terminal, opened by path so the new
    /// session leader acquires it as its controlling terminal; standard output
    /// to `/dev/null` (where an askpass prints the password).
    case terminal
    /// Standard input and output on pipes (an Assuan pinentry speaks there and
    /// opens the terminal itself from `OPTION ttyname`); standard error to
    /// `/dev/null`.
    case pipes
  }

  /// The same environment for every program, so none is favoured: a UTF-8
  /// locale and a terminal type every program here knows.
  static let environment = [
    "TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=/tmp",
  ]

  /// `POSIX_SPAWN_SETSID`, hidden from Swift behind `_GNU_SOURCE` (glibc 2.26+).
  private static let spawnSetSessionID: Int16 = 0x80
  /// The ioctls `posix_openpt`/`unlockpt`/`ptsname` wrap, which Swift cannot
  /// see here (`_IOW`/`_IOR` values of the generic encoding, x86-64 and arm64).
  private static let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK
  private static let numberRequest: UInt = 0x8004_5430  // TIOCGPTN

  let executable: String
  let arguments: [String]
  let wiring: Wiring
  /// The slave's path, as `/dev/pts/4`: what a pinentry gets as `ttyname`.
  let slavePath: String
  /// Every byte read from the master so far.
  private(set) var terminalOutput: [UInt8] = []
  /// Bytes read from the program's standard output (pipes wiring) not yet
  /// consumed as lines.
  private var pipeOutput: [UInt8] = []

  private let master: Int32
  /// Held open (without becoming our controlling terminal) so the master never
  /// reads EIO between the program's opens and closes.
  private let slave: Int32
  private var toProgram: Int32 = -1
  private var fromProgram: Int32 = -1
  private var processID: pid_t = 0

  /// Opens a new pseudo-terminal sized 80x24 and, for ``Wiring/pipes``, the
  /// two pipes. Does not start the program.
  ///
  /// - Throws: ``TerminalBenchmarkError`` when a descriptor cannot be opened.
  init(executable: String, arguments: [String], wiring: Wiring) throws(TerminalBenchmarkError) {
    self.executable = executable
    self.arguments = arguments
    self.wiring = wiring
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    guard master >= 0 else { throw .system("open /dev/ptmx") }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, Self.unlockRequest, &unlock) == 0,
      ioctl(master, Self.numberRequest, &number) == 0
    else {
      let error = TerminalBenchmarkError.system("unlock /dev/ptmx")
      close(master)
      throw error
    }
    slavePath = "/dev/pts/\(number)"
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      let error = TerminalBenchmarkError.system("open \(slavePath)")
      close(master)
      throw error
    }
    if wiring == .pipes {
      var input: [Int32] = [0, 0]
      var output: [Int32] = [0, 0]
      // Fully initialised by now: when these throw, deinit closes the rest.
      guard pipe(&input) == 0 else { throw .system("pipe") }
      guard pipe(&output) == 0 else {
        let error = TerminalBenchmarkError.system("pipe")
        close(input[0])
        close(input[1])
        throw error
      }
      // The program's ends are dup2'd into place (dup2 clears close-on-exec);
      // ours must not leak into it or into the next program.
      for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      toProgram = input[1]
      fromProgram = output[0]
      programEnds = (input[0], output[1])
    }
  }

  /// The program's ends of the pipes until ``launch()`` hands them over.
  private var programEnds: (input: Int32, output: Int32)? = nil

  deinit { end() }

  /// Spawns the program as the leader of a new session.
  ///
  /// - Throws: ``TerminalBenchmarkError`` when `posix_spawn` fails.
  func launch() throws(TerminalBenchmarkError) {
    precondition(processID == 0, "PseudoTerminalProcess.launch called twice")
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Self.spawnSetSessionID)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    switch wiring {
    case .terminal:
      // After setsid: a session leader opening a terminal without O_NOCTTY
      // makes it its controlling terminal, so /dev/tty works in the program.
      posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
      posix_spawn_file_actions_adddup2(&actions, 0, 2)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    case .pipes:
      let ends = programEnds!
      posix_spawn_file_actions_adddup2(&actions, ends.input, 0)
      posix_spawn_file_actions_adddup2(&actions, ends.output, 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var pid: pid_t = 0
    let result = withCStrings([executable] + arguments) { argv in
      withCStrings(Self.environment) { envp in
        posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      }
    }
    if let ends = programEnds {
      close(ends.input)
      close(ends.output)
      programEnds = nil
    }
    guard result == 0 else {
      throw TerminalBenchmarkError(
        message: "posix_spawn \(executable): \(String(cString: strerror(result)))")
    }
    processID = pid
  }

  /// Waits until `needle` appears in what the master has produced at or after
  /// byte `offset`, draining it meanwhile. Returns false at the deadline or
  /// when the terminal is gone.
  func waitForTerminalOutput(
    _ needle: [UInt8], after offset: Int = 0, deadline: UInt64
  ) -> Bool {
    waitForTerminalOutput(anyOf: [needle], after: offset, deadline: deadline)
  }

  /// Waits until any of `needles` appears in what the master has produced at
  /// or after byte `offset`, draining it meanwhile. Returns false at the
  /// deadline or when the terminal is gone.
  func waitForTerminalOutput(
    anyOf needles: [[UInt8]], after offset: Int = 0, deadline: UInt64
  ) -> Bool {
    precondition(!needles.isEmpty, "waitForTerminalOutput needs something to wait for")
    let longest = needles.map(\.count).max()!
    var searchedUpTo = offset
    while true {
      for needle in needles where Self.contains(terminalOutput, needle, from: searchedUpTo) {
        return true
      }
      searchedUpTo = max(offset, terminalOutput.count - longest + 1)
      guard pollOnce(until: deadline) else { return false }
    }
  }

  /// Drains the master until it has been silent for `quietMilliseconds`:
  /// the program has finished drawing. Untimed.
  func waitForQuiet(quietMilliseconds: Int32 = 30, deadline: UInt64) {
    while MonotonicClock.now() < deadline {
      var request = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&request, 1, quietMilliseconds) > 0 else { return }
      guard drainTerminal() else { return }
    }
  }

  /// Writes `bytes` to the master, as a keyboard would.
  func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Sends one line on the program's standard input (pipes wiring).
  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(toProgram, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }

  /// Reads one line from the program's standard output (pipes wiring),
  /// draining the master meanwhile. Nil at the deadline or end of file.
  func receiveLine(deadline: UInt64) -> String? {
    while true {
      if let newline = pipeOutput.firstIndex(of: 0x0A) {
        let line = String(decoding: pipeOutput[..<newline], as: UTF8.self)
        pipeOutput.removeSubrange(...newline)
        return line
      }
      guard pollOnce(until: deadline, watchingPipe: true) else { return nil }
    }
  }

  /// Kills the program's process group and reaps it; closes every descriptor.
  /// Safe to call more than once.
  func end() {
    if processID > 0 {
      kill(-processID, SIGKILL)
      kill(processID, SIGKILL)
      var status: Int32 = 0
      while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
      processID = 0
    }
    for descriptor in [toProgram, fromProgram] where descriptor >= 0 { close(descriptor) }
    if let ends = programEnds {
      close(ends.input)
      close(ends.output)
      programEnds = nil
    }
    toProgram = -1
    fromProgram = -1
    if !closed {
      close(slave)
      close(master)
      closed = true
    }
  }

  private var closed = false

  /// Polls the master (and the program's standard output when asked) once,
  /// up to the deadline, and reads what is ready. False at the deadline or
  /// when nothing more can come.
  private func pollOnce(until deadline: UInt64, watchingPipe: Bool = false) -> Bool {
    let now = MonotonicClock.now()
    guard now < deadline else { return false }
    let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now) / 1_000_000 + 1))
    var requests = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
    if watchingPipe { requests.append(pollfd(fd: fromProgram, events: Int16(POLLIN), revents: 0)) }
    let ready = poll(&requests, nfds_t(requests.count), milliseconds)
    if ready < 0 { return errno == EINTR }
    if ready == 0 { return MonotonicClock.now() < deadline }
    if requests[0].revents != 0 { _ = drainTerminal() }
    if watchingPipe && requests[1].revents != 0 {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(fromProgram, $0.baseAddress, $0.count) }
      if count < 0 { return errno == EINTR || errno == EAGAIN }
      if count == 0 { return false }
      pipeOutput += chunk[..<count]
    }
    return true
  }

  /// Reads everything the master holds now. False when it reports an error
  /// (the terminal hung up).
  private func drainTerminal() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if count > 0 {
        terminalOutput += chunk[..<count]
        continue
      }
      if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
      return false
    }
  }

  /// Whether `needle` occurs in `haystack` starting at or after `start`.
  private static func contains(_ haystack: [UInt8], _ needle: [UInt8], from start: Int) -> Bool {
    guard !needle.isEmpty else { return true }
    var index = max(0, start)
    while index + needle.count <= haystack.count {
      if haystack[index] == needle[0]
        && haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        return true
      }
      index += 1
    }
    return false
  }
}

/// Calls `body` with a NULL-terminated C array of copies of the strings.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// A terminal benchmark could not run: a descriptor could not be opened, a
/// program could not be started, or it never drew what was awaited.
struct TerminalBenchmarkError: Error, CustomStringConvertible {
  let message: String

  var description: String { message }

  /// `operation` failed with the current `errno`.
  static func system(_ operation: String) -> TerminalBenchmarkError {
    TerminalBenchmarkError(message: "\(operation): \(String(cString: strerror(errno)))")
  }
}
