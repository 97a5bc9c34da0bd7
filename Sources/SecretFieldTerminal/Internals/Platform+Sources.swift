import Glibc

/// `pipe2(2)`, declared by Glibc only under `_GNU_SOURCE`; see
/// `Platform+Processes.swift`.
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The libc calls of secret sources and child processes: files and their modes,
/// the environment block, and spawning and reaping programs. No Glibc name
/// leaves `Platform`.
extension Platform {
  // MARK: Files

  /// What `fstat` says of an open descriptor, as far as a secret source cares.
  struct FileKind {
    var isDirectory: Bool
    var isRegularFile: Bool
    var isTerminal: Bool
    /// The permission bits (`st_mode & 0o777`).
    var permissions: UInt32
  }

  /// Opens `path` read-only, close-on-exec, never as a controlling terminal.
  /// Blocks on a FIFO until a writer opens it, as `cat` would.
  static func openForReading(_ path: String) -> Result<Int32, Errno> {
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    return descriptor >= 0 ? .success(descriptor) : .failure(Errno(errno))
  }

  /// `fstat` on `descriptor`, with `isatty`; the errno when it is not open.
  static func fileKind(_ descriptor: Int32) -> Result<FileKind, Errno> {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(Errno(errno)) }
    let type = status.st_mode & S_IFMT
    return .success(
      FileKind(
        isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG,
        isTerminal: isatty(descriptor) == 1, permissions: status.st_mode & 0o777))
  }

  /// True when `path` names something that exists (`access(F_OK)`).
  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  // MARK: The environment block

  /// The bytes of the value of `name` where they lie in the environment block
  /// (`getenv`), writable so that they can be wiped in place; nil when unset.
  ///
  /// Not thread-safe against another thread changing the environment, as
  /// `getenv` is not.
  static func environmentValueBytes(_ name: String) -> UnsafeMutableRawBufferPointer? {
    guard let value = getenv(name) else { return nil }
    return UnsafeMutableRawBufferPointer(start: value, count: strlen(value))
  }

  /// Removes `name` from the environment (`unsetenv`), so no child inherits it.
  static func removeEnvironmentVariable(_ name: String) { _ = unsetenv(name) }

  // MARK: Spawning

  /// A pipe whose ends are closed on `exec` (`pipe2(O_CLOEXEC)`), so a program
  /// another thread starts cannot hold an end open.
  static func makePipe() -> Result<(read: Int32, write: Int32), Errno> {
    var ends: [Int32] = [-1, -1]
    guard systemPipe2(&ends, O_CLOEXEC) == 0 else { return .failure(Errno(errno)) }
    return .success((ends[0], ends[1]))
  }

  /// Starts `arguments[0]`, found on `PATH` (`posix_spawnp`), with this
  /// process's environment and no shell; `standardInput` and `standardOutput`
  /// replace descriptors 0 and 1 when given, standard error is inherited. The
  /// child starts with no signal blocked and `SIGPIPE` at its default action,
  /// whatever this process does with them, as a shell would start it.
  static func spawn(
    _ arguments: [String], standardInput: Int32? = nil, standardOutput: Int32? = nil
  ) -> Result<Int32, Errno> {
    precondition(!arguments.isEmpty, "spawn needs at least the program's name")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copy; the originals close at exec.
    if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, 0) }
    if let standardOutput { posix_spawn_file_actions_adddup2(&actions, standardOutput, 1) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var processID: pid_t = 0
    let spawned = spawnProcess(arguments, &processID, &actions, &attributes)
    return spawned == 0 ? .success(processID) : .failure(Errno(spawned))
  }

  /// How a child ended, from its wait status.
  enum ChildStatus: Equatable {
    case exited(Int32)
    case signalled(Int32)
  }

  /// Waits for `processID` to end (`waitpid`, retrying `EINTR`). A host that
  /// ignores `SIGCHLD` has its children reaped by the kernel (`ECHILD`): that
  /// reads as an exit with 0, since nothing else can be known.
  static func waitForExit(_ processID: Int32) -> ChildStatus {
    var status: Int32 = 0
    while true {
      let reaped = waitpid(processID, &status, 0)
      if reaped == processID { break }
      if reaped < 0 && errno == EINTR { continue }
      return .exited(0)
    }
    return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
  }

  /// Sends `SIGKILL` to `processID`.
  static func killChild(_ processID: Int32) { _ = Glibc.kill(processID, SIGKILL) }

  /// The signal's name without `SIG`, as in `TERM`; its number for an unknown one.
  static func signalName(_ signal: Int32) -> String {
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

extension Platform {
  /// `ENOENT`, for a message about a program that is not on `PATH`.
  static let noSuchFile = ENOENT
}
