import Glibc
import SystemCalls

/// Every libc call of the module, behind Swift names: opening and checking
/// request files, the directory listing, the clock, processes, the reply
/// socket and inotify. The rest of the module names no Glibc function.
enum AgentSystem {
  /// What `fstat`/`lstat` say of a file, as far as the agent cares.
  struct FileStatus: Sendable, Hashable {
    var isRegularFile: Bool
    var isSocket: Bool
    var isSymbolicLink: Bool
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    /// The last status change (`st_ctim`): a new inode that reuses a freed
    /// one's number has a later one.
    var changedSeconds: Int
    var changedNanoseconds: Int

    init(_ raw: stat) {
      let type = raw.st_mode & S_IFMT
      isRegularFile = type == S_IFREG
      isSocket = type == S_IFSOCK
      isSymbolicLink = type == S_IFLNK
      device = UInt64(raw.st_dev)
      inode = UInt64(raw.st_ino)
      size = Int(raw.st_size)
      modifiedSeconds = Int(raw.st_mtim.tv_sec)
      modifiedNanoseconds = Int(raw.st_mtim.tv_nsec)
      changedSeconds = Int(raw.st_ctim.tv_sec)
      changedNanoseconds = Int(raw.st_ctim.tv_nsec)
    }
  }

  /// The C library's words for `code` (`strerror`).
  static func describe(_ code: Int32) -> String { Errno(code).description }

  // MARK: The directory

  /// Opens a directory for `openat` (`open` with `O_DIRECTORY | O_RDONLY |
  /// O_CLOEXEC`).
  static func openDirectory(_ path: String) -> Result<Int32, AgentError> {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(AgentError(.directoryUnreadable, errno: errno)) }
    return .success(descriptor)
  }

  /// The names in the directory open at `descriptor` (`fdopendir` on a
  /// duplicate, `readdir`), without `.` and `..`, at most `limit` of them
  /// (the rest are not read: the count says how many there were in all).
  static func names(
    inDirectory descriptor: Int32, limit: Int
  ) -> Result<(names: [String], total: Int), AgentError> {
    System.directoryEntries(inDirectory: descriptor, limit: limit).mapError {
      AgentError(.directoryUnreadable, errno: $0.code)
    }
  }

  /// Opens `name` in the directory for reading, never following a symbolic
  /// link and never blocking on a FIFO (`openat` with `O_NOFOLLOW |
  /// O_NONBLOCK | O_NOCTTY | O_CLOEXEC`).
  static func openFile(_ name: String, inDirectory directory: Int32) -> Result<Int32, Errno> {
    let descriptor = openat(
      directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(Errno(errno)) }
    return .success(descriptor)
  }

  /// `fstat` of an open descriptor.
  static func status(of descriptor: Int32) -> Result<FileStatus, Errno> {
    var raw = stat()
    guard fstat(descriptor, &raw) == 0 else { return .failure(Errno(errno)) }
    return .success(FileStatus(raw))
  }

  /// `lstat` of a path, or of a name in a directory (`fstatat` with
  /// `AT_SYMLINK_NOFOLLOW`): a symbolic link is reported as itself.
  static func linkStatus(_ path: String, inDirectory directory: Int32 = AT_FDCWD) -> Result<
    FileStatus, Errno
  > {
    var raw = stat()
    guard fstatat(directory, path, &raw, AT_SYMLINK_NOFOLLOW) == 0 else {
      return .failure(Errno(errno))
    }
    return .success(FileStatus(raw))
  }

  /// Reads the whole of a small file that holds nothing secret, at most
  /// `limit` bytes; `EFBIG` when there is more.
  static func readAll(_ descriptor: Int32, limit: Int) -> Result<[UInt8], Errno> {
    System.readAll(descriptor, limit: limit)
  }

  /// Closes a descriptor.
  static func close(_ descriptor: Int32) { System.close(descriptor) }

  /// `errno` values the scan tells apart.
  static let noSuchFile = Errno.noSuchFile
  static let tooManyLinks = Errno.tooManyLinks
  static let fileTooBig = Errno.fileTooBig
  static let wouldBlock = Errno.wouldBlock
  static let permissionDenied = Errno(EACCES)

  // MARK: Clock and processes

  /// `CLOCK_MONOTONIC` now, in microseconds: the clock of `NotAfter=`.
  static func monotonicMicroseconds() -> UInt64 { System.monotonicMicroseconds() }

  /// False when no process has this ID (`kill(pid, 0)` fails with `ESRCH`);
  /// a process this user may not signal (`EPERM`) still exists.
  static func processExists(_ processID: Int32) -> Bool {
    kill(processID, 0) == 0 || errno != ESRCH
  }

  // MARK: The reply

  /// The longest socket path `sockaddr_un` holds, without its NUL.
  static let maximumSocketPathCount = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Opens the socket node `name` in the directory for its identity alone
  /// (`openat` with `O_PATH | O_NOFOLLOW | O_CLOEXEC`): a symbolic link is
  /// opened as itself, never followed, and nothing is read or written.
  static func openNode(_ name: String, inDirectory directory: Int32) -> Result<Int32, Errno> {
    System.openNode(name, inDirectory: directory)
  }

  /// `/proc/self/fd/N`: the path that names exactly the file open at `N`, for
  /// the calls that take a path only (`access`, `connect`).
  static func descriptorPath(_ descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }

  /// True when this process may write to the file open at `node` (`access`
  /// with `W_OK` on its `/proc/self/fd` path, by the real user and group, as
  /// systemd's agent checks the socket).
  static func mayWrite(node: Int32) -> Bool { access(descriptorPath(node), W_OK) == 0 }

  /// A new `AF_UNIX`/`SOCK_DGRAM` socket (close-on-exec, non-blocking)
  /// connected to the socket open at `node` (an `O_PATH` descriptor), through
  /// its `/proc/self/fd` path: the kernel resolves that to the very inode the
  /// descriptor holds, so what is connected is what was checked, whatever the
  /// directory holds under its name by now.
  static func connectDatagram(toNode node: Int32) -> Result<Int32, AgentError> {
    let socketDescriptor = socket(
      AF_UNIX,
      Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard socketDescriptor >= 0 else { return .failure(AgentError(.replyFailed, errno: errno)) }
    if let failure = connect(socketDescriptor, to: descriptorPath(node)) {
      Glibc.close(socketDescriptor)
      return .failure(failure)
    }
    return .success(socketDescriptor)
  }

  /// A new `AF_UNIX`/`SOCK_DGRAM` socket (close-on-exec, non-blocking)
  /// connected to `path`, following it as `connect(2)` does.
  static func connectDatagram(toPath path: String) -> Result<Int32, AgentError> {
    let socketDescriptor = socket(
      AF_UNIX,
      Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard socketDescriptor >= 0 else { return .failure(AgentError(.replyFailed, errno: errno)) }
    if let failure = connect(socketDescriptor, to: path) {
      Glibc.close(socketDescriptor)
      return .failure(failure)
    }
    return .success(socketDescriptor)
  }

  private static func connect(_ socketDescriptor: Int32, to path: String) -> AgentError? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    guard pathBytes.count <= maximumSocketPathCount, !pathBytes.contains(0) else {
      return AgentError(.socketPathTooLong, errno: nil)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { destination in
      for (index, byte) in pathBytes.enumerated() { destination[index] = byte }
    }
    let addressLength = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socketDescriptor, $0, addressLength)
      }
    }
    return connected == 0 ? nil : AgentError(.replyFailed, errno: errno)
  }

  /// Sends one datagram made of `prefix` and then `body`, gathered by
  /// `sendmsg(2)` from the two places (no buffer joins them), on the
  /// connected `socketDescriptor`, with `MSG_NOSIGNAL`.
  static func sendDatagram(
    prefix: UInt8, body: UnsafeRawBufferPointer, on socketDescriptor: Int32
  ) -> Result<Void, AgentError> {
    var prefixByte = prefix
    let sent = withUnsafeMutablePointer(to: &prefixByte) { prefixPointer in
      var vectors = [
        iovec(iov_base: UnsafeMutableRawPointer(prefixPointer), iov_len: 1),
        iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress), iov_len: body.count),
      ]
      let vectorCount = body.isEmpty ? 1 : 2
      return vectors.withUnsafeMutableBufferPointer { vectorPointer in
        var message = msghdr()
        message.msg_iov = vectorPointer.baseAddress
        message.msg_iovlen = vectorCount
        while true {
          let result = sendmsg(socketDescriptor, &message, Int32(MSG_NOSIGNAL))
          if result < 0 && errno == EINTR { continue }
          return result
        }
      }
    }
    guard sent >= 0 else { return .failure(AgentError(.replyFailed, errno: errno)) }
    guard sent == 1 + body.count else { return .failure(AgentError(.replyFailed, errno: EMSGSIZE)) }
    return .success(())
  }

  // MARK: inotify

  /// A new inotify instance (`inotify_init1` with `IN_NONBLOCK | IN_CLOEXEC`)
  /// watching `path` for a request written, renamed in, or removed.
  static func watchDirectory(_ path: String) -> Result<Int32, AgentError> {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return .failure(AgentError(.watchFailed, errno: errno)) }
    let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF)
    guard inotify_add_watch(descriptor, path, events) >= 0 else {
      let code = errno
      Glibc.close(descriptor)
      return .failure(AgentError(.watchFailed, errno: code))
    }
    return .success(descriptor)
  }

  /// Reads every event waiting on an inotify descriptor without blocking;
  /// true when there was one.
  static func drainEvents(_ descriptor: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var any = false
    while true {
      let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got > 0 {
        any = true
        continue
      }
      if got < 0 && errno == EINTR { continue }
      return any
    }
  }

  /// How a wait for room ended.
  enum RoomWait {
    /// The descriptor is writable (or polling failed for good: the send
    /// that follows tells).
    case writable
    case timedOut
    /// The interruption descriptor became readable first.
    case interrupted
  }

  /// Waits until `descriptor` is writable (`poll` for `POLLOUT`), at most
  /// `timeout`, or until `interruption` is readable, which wins when both
  /// are. A signal that interrupts `poll` starts the wait again: its handler
  /// makes `interruption` readable when it is one the caller serves.
  static func waitWritable(
    _ descriptor: Int32, timeout: Duration, interruption: Int32?
  ) -> RoomWait {
    let deadline = ContinuousClock.now + timeout
    var requests = [
      pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
      pollfd(fd: interruption ?? -1, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let left = deadline - .now
      guard left > .zero else { return .timedOut }
      let (seconds, attoseconds) = left.components
      let milliseconds = Int32(
        clamping: max(
          1, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
      for index in requests.indices { requests[index].revents = 0 }
      let ready = requests.withUnsafeMutableBufferPointer {
        poll($0.baseAddress, nfds_t($0.count), milliseconds)
      }
      if ready < 0 && errno == EINTR { continue }
      if ready < 0 { return .writable }
      if requests[1].revents != 0 { return .interrupted }
      if ready > 0 { return .writable }
    }
  }

  /// Waits until `descriptor` is readable, or `timeoutMilliseconds` passed
  /// (-1: no limit), or a signal came (`poll`); true when readable.
  static func waitReadable(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&request, 1, timeoutMilliseconds) > 0
  }
}
