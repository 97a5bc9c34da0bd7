import Glibc

extension System {
  /// How a child ended, from its wait status.
  package enum ChildStatus: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signalled(Int32)
  }

  /// Starts `arguments[0]`, found on `PATH` (`posix_spawnp`), with this
  /// process's environment, no shell, and the standard streams `streams`
  /// describes. The child starts with no signal blocked and `SIGPIPE` at its
  /// default action, whatever this process does with them, as a shell starts
  /// a program.
  ///
  /// - Returns: the child's process ID, or the spawn's error (``Errno/noSuchFile``
  ///   when the program is not on `PATH`).
  /// - Precondition: `arguments` is not empty.
  package static func spawn(
    _ arguments: [String], streams: StandardStreams = StandardStreams()
  ) -> Result<Int32, Errno> {
    precondition(!arguments.isEmpty, "spawn needs at least the program's name")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (number, stream, flags) in [
      (Int32(0), streams.input, O_RDONLY), (1, streams.output, O_WRONLY),
      (2, streams.error, O_WRONLY),
    ] {
      switch stream {
      case .inherited: break
      case .null: posix_spawn_file_actions_addopen(&actions, number, "/dev/null", flags, 0)
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor, number)
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A blocked mask survives exec, and the caller may have one (a worker
    // thread, a prompt in the middle of its relay).
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var processID: pid_t = 0
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let table: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
    var empty: [UnsafeMutablePointer<CChar>?] = [nil]
    let spawned = pointers.withUnsafeMutableBufferPointer { argv in
      empty.withUnsafeMutableBufferPointer { none in
        posix_spawnp(
          &processID, arguments[0], &actions, &attributes, argv.baseAddress!,
          table ?? none.baseAddress!)
      }
    }
    return spawned == 0 ? .success(processID) : .failure(Errno(spawned))
  }

  /// Waits for `processID` to end (`waitpid`, retrying `EINTR`); with a
  /// `deadline`, kills it (`SIGKILL`) once the deadline passes and returns nil.
  ///
  /// A host that ignores `SIGCHLD` has its children reaped by the kernel
  /// (`ECHILD`): that reads as an exit with 0, since nothing else can be known.
  package static func wait(
    for processID: Int32, killingAt deadline: ContinuousClock.Instant? = nil
  ) -> ChildStatus? {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(processID, &status, deadline == nil ? 0 : WNOHANG)
      if reaped == processID { break }
      if reaped < 0 {
        if errno == EINTR { continue }
        return .exited(0)
      }
      if let deadline, ContinuousClock.now >= deadline {
        Glibc.kill(processID, SIGKILL)
        _ = waitpid(processID, &status, 0)
        return nil
      }
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      nanosleep(&pause, nil)
    }
    return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
  }

  /// Sends `SIGKILL` to `processID`.
  package static func kill(_ processID: Int32) { _ = Glibc.kill(processID, SIGKILL) }

  /// The signal's name without `SIG`, as in `TERM`; its number for an unknown one.
  package static func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGHUP: "HUP"
    case SIGINT: "INT"
    case SIGQUIT: "QUIT"
    case SIGILL: "ILL"
    case SIGABRT: "ABRT"
    case SIGKILL: "KILL"
    case SIGSEGV: "SEGV"
    case SIGPIPE: "PIPE"
    case SIGALRM: "ALRM"
    case SIGTERM: "TERM"
    case SIGUSR1: "USR1"
    case SIGUSR2: "USR2"
    default: String(signal)
    }
  }
}
