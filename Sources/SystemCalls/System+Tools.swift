import Glibc

/// The libc calls the tools make around their work: messages, small files,
/// the parent process, signals set up for a program, and replacing the
/// process.
extension System {

  /// Writes all of `text` to `descriptor`, retrying short writes and `EINTR`.
  /// Returns the errno on failure (`EPIPE` for a closed pipe, never a
  /// `SIGPIPE`: see `System.writeAll`). Only for what is not secret.
  @discardableResult
  package static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { System.writeAll(descriptor, UnsafeRawBufferPointer($0))?.code }
  }

  /// The text of a small file that holds nothing secret (a password hash), at
  /// most `limit` bytes; the errno when it cannot be read, or `EFBIG` when it
  /// is longer.
  package static func readSmallFile(_ path: String, limit: Int) -> Result<String, Errno> {
    System.readFile(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The parent process's name as the kernel keeps it (`/proc/PPID/comm`: the
  /// executable's file name, at most 15 bytes), or nil when it cannot be read.
  package static func parentProcessName() -> String? {
    guard case .success(let name) = readSmallFile("/proc/\(getppid())/comm", limit: 64) else {
      return nil
    }
    let trimmed = name.hasSuffix("\n") ? String(name.dropLast()) : name
    return trimmed.isEmpty ? nil : trimmed
  }

  /// Returns once the parent process has ended (this process was handed to
  /// another parent), looking once a second; a signal's default action ends
  /// the process meanwhile.
  package static func waitWhileParentLives() {
    let parent = getppid()
    while getppid() == parent { sleep(1) }
  }

  /// Stops this process (`SIGSTOP`) until it is continued.
  package static func stopThisProcess() { _ = raise(SIGSTOP) }

  /// Ends the process with `status`, running exit handlers.
  package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

extension System {

  /// Ignores `signal` (`signal(2)` with `SIG_IGN`), so that it neither kills
  /// nor stops the process, and a prompt does not relay it.
  package static func ignore(_ signal: Int32) {
    _ = Glibc.signal(signal, SIG_IGN)
  }

  /// Puts `signal` back to its default action (`signal(2)` with `SIG_DFL`),
  /// whatever handler the runtime or the parent left.
  package static func restoreDefaultAction(of signal: Int32) {
    _ = Glibc.signal(signal, SIG_DFL)
  }

  /// `SIGQUIT`, the quit key's signal.
  package static let quitSignal = SIGQUIT
}

extension System {
  /// `SIGPIPE` and the job-control signals a pinentry ignores.
  package static let jobControlAndPipeSignals = [SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT]
}

extension System {
  /// The signals that end a prompt (the relay's fatal ones, the real-time
  /// ones from the C library's `SIGRTMIN` included) and resize it.
  package static let promptSignals =
    [SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGALRM, SIGWINCH, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF]
    + [SIGXCPU, SIGXFSZ, SIGPWR, SIGSTKFLT, SIGIO]
    + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

  /// Puts the prompt's signals back to their default actions and unblocks
  /// them (`signal(2)`, `pthread_sigmask`), whatever the parent left: a
  /// program inherits ignored dispositions and the blocked mask of the thread
  /// that started it, and a multi-threaded parent (gpg-agent's threads, a
  /// test runner's) may start it with them blocked, where the prompt's relay
  /// would never see them.
  package static func resetPromptSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for number in promptSignals {
      _ = Glibc.signal(number, SIG_DFL)
      sigaddset(&set, number)
    }
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}

extension System {
  /// True when `path` (the terminal, `/dev/tty`) opens for reading and writing;
  /// it is closed again at once. `O_NOCTTY`: opening never makes it the
  /// controlling terminal.
  package static func canOpenTerminal(_ path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    Glibc.close(descriptor)
    return true
  }

  /// The directory of this process's executable (`/proc/self/exe`), or nil
  /// when the link cannot be read.
  package static func executableDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return String(path[..<slash])
  }

  /// True when `path` is a file this process may execute.
  package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

  /// Replaces this process with `path` run with `arguments` (the first is its
  /// name) and the same environment. Wraps `execv`; returns only when it
  /// failed, with the errno.
  package static func replaceProcess(with path: String, arguments: [String]) -> Errno {
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    _ = execv(path, &pointers)
    let failure = Errno.current
    for pointer in pointers { free(pointer) }
    return failure
  }
}
