import Glibc

/// The libc calls of recording detection: sessions, terminal devices, and
/// running a short helper program (tmux).
extension System {
  // MARK: Processes and sessions

  package static var currentProcessID: Int32 { getpid() }

  /// The session ID of the session whose controlling terminal `descriptor` is
  /// (`tcgetsid`), which is the session leader's process ID. Fails with
  /// `ENOTTY` when the terminal is not this process's controlling terminal.
  package static func sessionID(ofTerminal descriptor: Int32) -> Result<Int32, Errno> {
    let session = tcgetsid(descriptor)
    return session >= 0 ? .success(session) : .failure(Errno(errno))
  }

  /// The device number of the terminal behind `descriptor`, in the kernel's
  /// encoding of `/proc/PID/stat`'s `tty_nr` (`new_encode_dev`).
  ///
  /// Asks the tty layer (`TIOCGDEV`), which answers with the real terminal even
  /// for a descriptor opened through `/dev/tty` (whose `fstat` shows `/dev/tty`
  /// itself, 5:0); falls back to `fstat`'s `st_rdev`.
  package static func terminalDeviceNumber(_ descriptor: Int32) -> UInt32? {
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
  package static func deviceNumber(ofPath path: String) -> UInt32? {
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

  // MARK: Running a helper program

  /// How a helper program ended.
  package enum HelperOutcome {
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
  /// The pipe is made close-on-exec, so a program another thread starts
  /// meanwhile cannot hold it open and delay the end of file.
  package static func runHelper(
    _ arguments: [String], timeoutMilliseconds: Int, outputLimit: Int = 64 * 1024
  ) -> HelperOutcome {
    precondition(!arguments.isEmpty, "runHelper needs at least the program's name")
    let readEnd: Int32
    let writeEnd: Int32
    switch makePipe() {
    case .success(let ends): (readEnd, writeEnd) = ends
    case .failure(let errno): return .notStarted(errno)
    }
    defer { close(readEnd) }
    let spawned = spawn(
      arguments, streams: StandardStreams(input: .null, output: .descriptor(writeEnd), error: .null)
    )
    close(writeEnd)
    let processID: Int32
    switch spawned {
    case .success(let started): processID = started
    case .failure(let errno): return .notStarted(errno)
    }

    let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var finished = false
    while !finished {
      var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&request, 1, pollTimeout(until: deadline))
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 {
        kill(processID)
        _ = wait(for: processID)
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
    switch wait(for: processID, killingAt: deadline) {
    case .exited(let status)?: return .exited(status: status, output: output)
    case .signalled(let signal)?: return .signaled(signal)
    case nil: return .timedOut
    }
  }
}
