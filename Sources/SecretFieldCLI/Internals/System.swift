import Glibc

/// Every libc call the commands make, behind Swift names; the rest of the
/// module names no Glibc function.
enum System {
  /// True when `descriptor` is a terminal (`isatty`).
  static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Writes all of `text` to `descriptor`, retrying short writes and `EINTR`.
  /// Returns the errno on failure (`EPIPE` for a closed pipe: `SIGPIPE` is
  /// blocked around the write and one it caused is taken back, as
  /// `SecureBuffer.write(to:)` does). Only for what is not secret.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var pipeOnly = sigset_t()
    sigemptyset(&pipeOnly)
    sigaddset(&pipeOnly, SIGPIPE)
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
    defer {
      sigpending(&pending)
      if !wasPending && sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&pipeOnly, nil, &now) < 0 && errno == EINTR {}
      }
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      guard var next = bytes.baseAddress else { return nil }
      var remaining = bytes.count
      while remaining > 0 {
        let written = Glibc.write(descriptor, next, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        next += written
        remaining -= written
      }
      return nil
    }
  }

  /// The text of a small file that holds nothing secret (a password hash), at
  /// most `limit` bytes; the errno when it cannot be read, or `EFBIG` when it
  /// is longer.
  static func readSmallFile(_ path: String, limit: Int) -> Result<String, SystemError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(SystemError(errno)) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(SystemError(errno))
      }
      if got == 0 { break }
      bytes += chunk[..<got]
      if bytes.count > limit { return .failure(SystemError(EFBIG)) }
    }
    return .success(String(decoding: bytes, as: UTF8.self))
  }

  /// The value of the environment variable `name` (`getenv`).
  static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The parent process's name as the kernel keeps it (`/proc/PPID/comm`: the
  /// executable's file name, at most 15 bytes), or nil when it cannot be read.
  static func parentProcessName() -> String? {
    guard case .success(let name) = readSmallFile("/proc/\(getppid())/comm", limit: 64) else {
      return nil
    }
    let trimmed = name.hasSuffix("\n") ? String(name.dropLast()) : name
    return trimmed.isEmpty ? nil : trimmed
  }

  /// Returns once the parent process has ended (this process was handed to
  /// another parent), looking once a second; a signal's default action ends
  /// the process meanwhile.
  static func waitWhileParentLives() {
    let parent = getppid()
    while getppid() == parent { sleep(1) }
  }

  /// Stops this process (`SIGSTOP`) until it is continued.
  static func stopThisProcess() { _ = raise(SIGSTOP) }

  /// Ends the process with `status`, running exit handlers.
  static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// An `errno` from a call the commands made, with the C library's words for it.
struct SystemError: Error {
  var code: Int32
  init(_ code: Int32) { self.code = code }
  var description: String { String(cString: strerror(code)) }

  /// `EPIPE`: the reading end of a pipe is closed.
  static let brokenPipe = EPIPE
}

extension System {
  /// Sets the access and modification times of `path` to now (`utimensat`),
  /// as `touch` does to a file that exists; does nothing when it does not.
  static func touch(_ path: String) {
    _ = utimensat(AT_FDCWD, path, nil, 0)
  }

  /// Ignores `signal` (`signal(2)` with `SIG_IGN`), so that it neither kills
  /// nor stops the process, and a prompt does not relay it.
  static func ignore(_ signal: Int32) {
    _ = Glibc.signal(signal, SIG_IGN)
  }
}

extension System {
  /// `SIGPIPE` and the job-control signals a pinentry ignores.
  static let jobControlAndPipeSignals = [SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT]
}

extension System {
  /// The signals that end a prompt (the relay's fatal ones, the real-time
  /// ones from the C library's `SIGRTMIN` included) and resize it.
  static let promptSignals =
    [SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGALRM, SIGWINCH, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF]
    + [SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGIO]
    + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

  /// Puts the prompt's signals back to their default actions and unblocks
  /// them (`signal(2)`, `pthread_sigmask`), whatever the parent left: a
  /// program inherits ignored dispositions and the blocked mask of the thread
  /// that started it, and a multi-threaded parent (gpg-agent's threads, a
  /// test runner's) may start it with them blocked, where the prompt's relay
  /// would never see them.
  static func resetPromptSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for number in promptSignals {
      _ = Glibc.signal(number, SIG_DFL)
      sigaddset(&set, number)
    }
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}
