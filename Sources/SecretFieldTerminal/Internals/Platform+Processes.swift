import Glibc

/// `pipe2(2)`: Glibc declares it only under `_GNU_SOURCE`, which Swift's Glibc
/// module does not define. The signature is the kernel's and glibc's.
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The libc calls of recording detection: sessions, `/proc`, and running a short
/// helper program (tmux). Kept beside `Platform.swift` in its own file because
/// none of it touches the terminal's modes; the rule is the same: no Glibc name
/// leaves `Platform`.
extension Platform {
  // MARK: Processes and sessions

  static var currentProcessID: Int32 { getpid() }

  /// The session ID of the session whose controlling terminal `descriptor` is
  /// (`tcgetsid`), which is the session leader's process ID. Fails with
  /// `ENOTTY` when the terminal is not this process's controlling terminal.
  static func sessionID(ofTerminal descriptor: Int32) -> Result<Int32, Errno> {
    let session = tcgetsid(descriptor)
    return session >= 0 ? .success(session) : .failure(Errno(errno))
  }

  /// The device number of the terminal behind `descriptor`, in the kernel's
  /// encoding of `/proc/PID/stat`'s `tty_nr` (`new_encode_dev`).
  ///
  /// Asks the tty layer (`TIOCGDEV`), which answers with the real terminal even
  /// for a descriptor opened through `/dev/tty` (whose `fstat` shows `/dev/tty`
  /// itself, 5:0); falls back to `fstat`'s `st_rdev`.
  static func terminalDeviceNumber(_ descriptor: Int32) -> UInt32? {
    // _IOR('T', 0x32, unsigned int), which Swift cannot import: the generic
    // ioctl encoding, the same on x86-64 and arm64.
    let TIOCGDEV: UInt = 0x8004_5432
    var number: UInt32 = 0
    if ioctl(descriptor, TIOCGDEV, &number) == 0 { return number }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return encodedDeviceNumber(status.st_rdev)
  }

  /// The device number of the device file at `path` (`stat`'s `st_rdev`), in the
  /// encoding of ``terminalDeviceNumber(_:)``.
  static func deviceNumber(ofPath path: String) -> UInt32? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return encodedDeviceNumber(status.st_rdev)
  }

  /// glibc's `dev_t` (`gnu_dev_makedev`) to the kernel's `new_encode_dev`:
  /// minor bits 0-7, major bits 8-19, the rest of the minor above.
  private static func encodedDeviceNumber(_ device: dev_t) -> UInt32 {
    let major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
    let minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
    return (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12)
  }

  // MARK: Files

  /// The whole content of a file, read with `read(2)` until end of file or
  /// `limit` bytes. For `/proc` files, whose size `stat` does not tell.
  static func readFile(_ path: String, limit: Int = 1 << 20) -> Result<[UInt8], Errno> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(Errno(errno)) }
    defer { _ = Glibc.close(descriptor) }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(limit, 16 * 1024))
    while content.count < limit {
      let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(Errno(errno))
      }
      if got == 0 { break }
      content += chunk[..<min(got, limit - content.count)]
    }
    return .success(content)
  }

  /// The names in a directory (`opendir`, `readdir`), without `.` and `..`.
  static func directoryEntries(_ path: String) -> Result<[String], Errno> {
    guard let directory = opendir(path) else { return .failure(Errno(errno)) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return .success(names)
  }

  // MARK: Running a helper program

  /// How a helper program ended.
  enum HelperOutcome {
    /// It exited with `status`, having written `output` to its standard output.
    case exited(status: Int32, output: [UInt8])
    /// A signal ended it.
    case signaled(Int32)
    /// It did not finish before the deadline and was killed (`SIGKILL`).
    case timedOut
    /// It could not be started (`posix_spawnp`): not installed, or no resources.
    case notStarted(Errno)
  }

  /// Runs `arguments` (the program found on `PATH` by `posix_spawnp`) with this
  /// process's environment, standard input and error on `/dev/null`, standard
  /// output into a pipe, no signal blocked; collects its output (at most
  /// `outputLimit` bytes) and waits for it until `timeoutMilliseconds` have
  /// passed, then kills it.
  ///
  /// The pipe is made close-on-exec (`pipe2`), so a program another thread
  /// starts meanwhile cannot hold it open and delay the end of file.
  static func runHelper(
    _ arguments: [String], timeoutMilliseconds: Int, outputLimit: Int = 64 * 1024
  ) -> HelperOutcome {
    precondition(!arguments.isEmpty, "runHelper needs at least the program's name")
    var ends: [Int32] = [-1, -1]
    guard systemPipe2(&ends, O_CLOEXEC) == 0 else { return .notStarted(Errno(errno)) }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { _ = Glibc.close(readEnd) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A blocked signal mask survives exec, and the caller may have one (a
    // worker thread, a prompt in the middle of its relay): tmux should run as
    // a shell would run it.
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

    var processID: pid_t = 0
    let spawned = spawnProcess(arguments, &processID, &actions, &attributes)
    _ = Glibc.close(writeEnd)
    guard spawned == 0 else { return .notStarted(Errno(spawned)) }

    let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var finished = false
    while !finished {
      var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&request, 1, Platform.pollTimeout(until: deadline))
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 {
        kill(processID, SIGKILL)
        _ = waitForChild(processID)
        return .timedOut
      }
      let got = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 {
        finished = true
      } else if output.count < outputLimit {
        output += chunk[..<min(got, outputLimit - output.count)]
      }
    }
    // End of file: the helper closed its output, so it is exiting; a helper
    // that closed it and lingers is killed rather than waited for.
    switch waitForChild(processID, orKillAt: deadline) {
    case .some(let status) where status & 0x7f == 0:
      return .exited(status: (status >> 8) & 0xff, output: output)
    case .some(let status):
      return .signaled(status & 0x7f)
    case .none:
      return .timedOut
    }
  }

  /// Reaps `processID` (`waitpid`), killing it once `deadline` passes; the raw
  /// wait status, or nil when it had to be killed. A host that ignores
  /// `SIGCHLD` has its children reaped by the kernel (`ECHILD`): that reads as
  /// status 0, and the output is all there is to judge the answer by.
  /// `posix_spawnp` of `arguments` (searched in `PATH`, no shell) with this
  /// process's environment; returns its error number, 0 when the child started.
  static func spawnProcess(
    _ arguments: [String], _ processID: inout pid_t,
    _ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t
  ) -> Int32 {
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
    var empty: [UnsafeMutablePointer<CChar>?] = [nil]
    return pointers.withUnsafeMutableBufferPointer { argv in
      empty.withUnsafeMutableBufferPointer { none in
        posix_spawnp(
          &processID, arguments[0], &actions, &attributes, argv.baseAddress!,
          table ?? none.baseAddress!)
      }
    }
  }

  private static func waitForChild(
    _ processID: pid_t, orKillAt deadline: ContinuousClock.Instant? = nil
  ) -> Int32? {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(processID, &status, deadline == nil ? 0 : WNOHANG)
      if reaped == processID { return status }
      if reaped < 0 {
        if errno == EINTR { continue }
        return errno == ECHILD ? 0 : nil
      }
      // Still running after closing its output: give it until the deadline.
      if let deadline, ContinuousClock.now >= deadline {
        kill(processID, SIGKILL)
        _ = waitpid(processID, &status, 0)
        return nil
      }
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      nanosleep(&pause, nil)
    }
  }
}

extension Errno {
  /// `ENOENT`: for `posix_spawnp`, the program is not on `PATH`.
  var isNoSuchFile: Bool { code == ENOENT }
}
