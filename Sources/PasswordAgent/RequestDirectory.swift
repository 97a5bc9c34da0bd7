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
/// directory, fit a socket address, and be writable by this user. Whatever
/// fails is skipped with a ``SkippedRequest`` that says why.
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
    if let problem = checkSocket(request.socketPath) { return .skipped(problem) }
    return .pending(PendingRequest(fileName: name, request: request, status: status))
  }

  /// Why an answer may not go to `socketPath`, or nil when it may: a socket
  /// (not a link to one) directly in this directory, whose path fits a
  /// socket address, that this user may write to.
  func checkSocket(_ socketPath: String) -> SkippedRequest.Reason? {
    guard socketPath.utf8.count <= AgentSystem.maximumSocketPathCount else {
      return .socketPathTooLong
    }
    let prefix = path == "/" ? "/" : path + "/"
    guard socketPath.hasPrefix(prefix) else { return .socketOutsideDirectory }
    let name = socketPath.dropFirst(prefix.count)
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
      return .socketOutsideDirectory
    }
    guard case .success(let status) = AgentSystem.linkStatus(socketPath), status.isSocket else {
      return .socketNotASocket
    }
    guard AgentSystem.mayWrite(socketPath) else { return .socketNotWritable }
    return nil
  }
}
