import SystemCalls
/// The directory where programs leave their password requests:
/// `/run/systemd/ask-password/` for the system, or
/// `$XDG_RUNTIME_DIR/systemd/ask-password/` for a user's services.
///
/// ``scan()`` reads every request there and checks it, as systemd's
/// `docs/PASSWORD_AGENTS.md` asks and more: only regular files named `ask.*`
/// (hidden ones and others ignored), opened with `O_NOFOLLOW` and checked with
/// `fstat` on the open descriptor (so a symbolic link or a file swapped
/// meanwhile is never read); a request whose `NotAfter=` passed or whose `PID=`
/// is gone is dropped; its `Socket=` must be a socket directly in this
/// directory (opened by name in the directory without following a link, and
/// checked on that descriptor), fit a socket address, and be writable by this
/// user. Whatever fails is skipped with a ``SkippedRequest`` that says why.
///
/// The answer goes to the socket the scan checked, never to its path again:
/// ``connect(to:)`` connects to that inode before the request is asked.
public struct RequestDirectory: Sendable, Hashable {
  /// The directory's path, without a trailing slash.
  public let path: String

  /// `/run/systemd/ask-password`.
  public static let systemPath = "/run/systemd/ask-password"
  /// The most `ask.*` files one scan reads; more are skipped as
  /// ``SkippedRequest/Reason/tooMany`` until the first ones are answered.
  public static let maximumRequestCount = 1024

  /// The directory at `path`.
  public init(path: String) {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    self.path = path
  }

  /// The system's directory.
  public static var system: RequestDirectory { RequestDirectory(path: systemPath) }

  /// A user's directory under `runtimeDirectory` (`$XDG_RUNTIME_DIR`).
  public static func user(runtimeDirectory: String) -> RequestDirectory {
    RequestDirectory(path: RequestDirectory(path: runtimeDirectory).path + "/systemd/ask-password")
  }

  /// What a scan found.
  public struct Scan: Sendable {
    /// The requests to ask, oldest first.
    public var requests: [PendingRequest] = []
    /// The files not asked, by name.
    public var skipped: [SkippedRequest] = []
  }

  /// Reads and checks every request in the directory.
  ///
  /// A directory that does not exist holds no request.
  ///
  /// - Complexity: one `openat`, `fstat`, `read` and `close` per `ask.*` file,
  ///   an `lstat` and `access` per socket; at most ``maximumRequestCount`` files.
  /// - Throws: ``AgentError`` with code `directoryUnreadable` when the
  ///   directory exists and cannot be listed.
  public func scan() throws(AgentError) -> Scan {
    let directory: Int32
    switch AgentSystem.openDirectory(path) {
    case .success(let opened): directory = opened
    case .failure(let error):
      if error.errno == AgentSystem.noSuchFile.code { return Scan() }
      throw error
    }
    defer { AgentSystem.close(directory) }
    let listed: [String]
    switch AgentSystem.names(inDirectory: directory, limit: .max) {
    case .success(let result): listed = result.names
    case .failure(let error): throw error
    }
    var scan = Scan()
    let now = AgentSystem.monotonicMicroseconds()
    let candidates = listed.filter { $0.hasPrefix("ask.") }.sorted()
    for (index, name) in candidates.enumerated() {
      if index >= Self.maximumRequestCount {
        scan.skipped.append(SkippedRequest(fileName: name, reason: .tooMany))
        continue
      }
      switch read(name, in: directory, now: now) {
      case .pending(let pending): scan.requests.append(pending)
      case .skipped(let reason): scan.skipped.append(SkippedRequest(fileName: name, reason: reason))
      }
    }
    scan.requests.sort(by: PendingRequest.isOlder)
    return scan
  }

  /// True while the file of `pending` is still there, the same file: the
  /// same inode, written at the same time (a removed file's inode is soon
  /// reused).
  public func stillHolds(_ pending: PendingRequest) -> Bool {
    guard case .success(let status) = AgentSystem.linkStatus(path + "/" + pending.fileName)
    else { return false }
    return status.device == pending.device && status.inode == pending.inode
      && (status.modifiedSeconds, status.modifiedNanoseconds) == pending.writtenAt
  }

  /// What reading one file gave.
  private enum FileOutcome {
    case pending(PendingRequest)
    case skipped(SkippedRequest.Reason)
  }

  /// Opens, checks and parses one request file.
  private func read(_ name: String, in directory: Int32, now: UInt64) -> FileOutcome {
    let descriptor: Int32
    switch AgentSystem.openFile(name, inDirectory: directory) {
    case .success(let opened): descriptor = opened
    case .failure(AgentSystem.noSuchFile): return .skipped(.vanished)
    case .failure(AgentSystem.tooManyLinks): return .skipped(.symbolicLink)
    case .failure(let errno): return .skipped(.unreadable(errno: errno.code))
    }
    defer { AgentSystem.close(descriptor) }
    let status: AgentSystem.FileStatus
    switch AgentSystem.status(of: descriptor) {
    case .success(let found): status = found
    case .failure(let errno): return .skipped(.unreadable(errno: errno.code))
    }
    guard status.isRegularFile else { return .skipped(.notRegularFile) }
    let bytes: [UInt8]
    switch AgentSystem.readAll(descriptor, limit: PasswordRequest.maximumFileSize) {
    case .success(let read): bytes = read
    case .failure(AgentSystem.fileTooBig):
      return .skipped(.malformed(PasswordRequestError(.tooLarge)))
    case .failure(let errno): return .skipped(.unreadable(errno: errno.code))
    }
    // Removed meanwhile: the asker has its answer or gave up.
    guard case .success(let linked) = AgentSystem.linkStatus(name, inDirectory: directory),
      linked.inode == status.inode, linked.device == status.device
    else { return .skipped(.vanished) }
    let request: PasswordRequest
    do {
      request = try PasswordRequest(parsing: bytes)
    } catch {
      return .skipped(.malformed(error))
    }
    if request.hasExpired(at: now) { return .skipped(.expired) }
    if let processID = request.processID, !AgentSystem.processExists(processID) {
      return .skipped(.askerGone(processID: processID))
    }
    let socket: AgentSystem.FileStatus
    switch checkSocket(request.socketPath, inDirectory: directory) {
    case .success(let checked): socket = checked
    case .failure(let problem): return .skipped(problem.reason)
    }
    return .pending(
      PendingRequest(fileName: name, request: request, status: status, socket: socket))
  }

  /// A reason to skip, as an error for `Result`.
  struct SocketProblem: Error {
    var reason: SkippedRequest.Reason
  }

  /// The socket `socketPath` names, checked, or why an answer may not go
  /// there: a socket (not a link to one) directly in this directory, opened
  /// by its name in the directory open at `directory` (`O_PATH |
  /// O_NOFOLLOW`), whose path fits a socket address, that this user may write
  /// to (checked on the open node). Its status names the inode
  /// ``connect(to:)`` must find again.
  func checkSocket(
    _ socketPath: String, inDirectory directory: Int32
  ) -> Result<AgentSystem.FileStatus, SocketProblem> {
    guard socketPath.utf8.count <= AgentSystem.maximumSocketPathCount else {
      return .failure(SocketProblem(reason: .socketPathTooLong))
    }
    guard let name = socketName(socketPath) else {
      return .failure(SocketProblem(reason: .socketOutsideDirectory))
    }
    guard case .success(let node) = AgentSystem.openNode(name, inDirectory: directory) else {
      return .failure(SocketProblem(reason: .socketNotASocket))
    }
    defer { AgentSystem.close(node) }
    guard case .success(let status) = AgentSystem.status(of: node), status.isSocket else {
      return .failure(SocketProblem(reason: .socketNotASocket))
    }
    guard AgentSystem.mayWrite(node: node) else {
      return .failure(SocketProblem(reason: .socketNotWritable))
    }
    return .success(status)
  }

  /// The name of `socketPath` in this directory, or nil when it names
  /// anything else (another directory, `.`, `..`).
  func socketName(_ socketPath: String) -> String? {
    let prefix = path == "/" ? "/" : path + "/"
    guard socketPath.hasPrefix(prefix) else { return nil }
    let name = socketPath.dropFirst(prefix.count)
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
    return String(name)
  }

  /// Connects to the socket of `pending`, the very one the scan checked:
  /// opened again by its name in the directory without following a link,
  /// the same device and inode, unchanged since (a socket made in its place
  /// may reuse the inode's number, never its change time), still a socket this user may write to, and
  /// connected through its descriptor (``ReplySocket``). From then on the
  /// answer goes there whatever happens to the name.
  ///
  /// - Complexity: an `open` of the directory, an `openat`, `fstat`,
  ///   `access`, `socket` and `connect`.
  /// - Throws: ``AgentError`` with code `socketReplaced` when the name no
  ///   longer holds that socket, `replyFailed` when the connection fails
  ///   (the asker is gone).
  public func connect(to pending: PendingRequest) throws(AgentError) -> ReplySocket {
    guard let name = socketName(pending.request.socketPath) else {
      throw AgentError(.socketReplaced, errno: nil)
    }
    let directory: Int32
    switch AgentSystem.openDirectory(path) {
    case .success(let opened): directory = opened
    case .failure(let error): throw error
    }
    defer { AgentSystem.close(directory) }
    guard case .success(let node) = AgentSystem.openNode(name, inDirectory: directory) else {
      throw AgentError(.socketReplaced, errno: nil)
    }
    defer { AgentSystem.close(node) }
    guard case .success(let status) = AgentSystem.status(of: node), status.isSocket,
      status.device == pending.socketDevice, status.inode == pending.socketInode,
      (status.changedSeconds, status.changedNanoseconds) == pending.socketChanged
    else { throw AgentError(.socketReplaced, errno: nil) }
    guard AgentSystem.mayWrite(node: node) else {
      throw AgentError(.replyFailed, errno: AgentSystem.permissionDenied.code)
    }
    switch AgentSystem.connectDatagram(toNode: node) {
    case .success(let connected): return ReplySocket(descriptor: connected)
    case .failure(let error): throw error
    }
  }
}
