import SecureMemory
import SystemCalls

extension SecretSource {
  /// One line from `descriptor`, byte by byte (``readLine(from:named:maximumCount:timeout:storage:)``),
  /// so nothing after it is taken from a pipe another reader shares.
  static func readLine(
    from descriptor: Int32, named what: String, limit: Int, timeout: Duration?,
    storage: SecureStorage
  ) throws(SecretSourceError) -> SecureBuffer {
    switch SourceSystem.fileKind(descriptor) {
    case .failure(let errno): throw .cannotOpen(what, errno: errno)
    case .success(let kind) where kind.isTerminal: throw .isTerminal(what)
    case .success(let kind) where kind.isDirectory: throw .isDirectory(what)
    case .success: break
    }
    // The write end of a pipe never becomes readable: waiting would be for ever.
    if SourceSystem.isWriteOnly(descriptor) { throw .writeOnly(what) }
    switch try readLine(
      from: descriptor, named: what, maximumCount: limit, timeout: timeout, storage: storage)
    {
    case .line(let line): return line
    case .endOfInput: throw .empty(what)
    case .timedOut: throw .timedOut(what)
    }
  }

  /// Who may have chosen what a file source reads.
  enum FileCheck {
    /// `file:`: the one rule for every kind of file (a regular file, a FIFO,
    /// a device): owned by this process's user or root, and writable by
    /// neither its group nor others; readable by them is a warning.
    case ownerAndMode
    /// A systemd credential: the service manager made it for this service.
    case none
  }

  /// What of a file is the secret.
  enum FileExtent {
    /// `file:`: the first line, without its LF and a CR before it.
    case firstLine
    /// A systemd credential, as `systemd-ask-password --credential=` takes it:
    /// the whole file, line feeds included.
    case wholeFile
  }

  /// The secret in the file at `path` (`extent`: its first line, or all of
  /// it): at most `limit + 1` bytes are read, the secret kept, the rest wiped.
  ///
  /// The path is walked first (`SourcePath`): a link anyone else could have
  /// put in a sticky folder such as `/tmp` is refused. Then it is opened
  /// without blocking (`O_NONBLOCK`), so a FIFO with no writer is opened at
  /// once, and checked on the descriptor (`fstat`, `fstatfs`) before a byte
  /// is read: the very file the walk ended on, not in `/proc`, its kind,
  /// owner and mode. A FIFO is then read as a descriptor is, a line byte by
  /// byte, waiting at most `timeout` (nil: without limit) for a writer and
  /// its line; a regular file is read at once.
  static func readFile(
    _ path: String, named what: String, limit: Int, check: FileCheck,
    extent: FileExtent = .firstLine, timeout: Duration?, storage: SecureStorage,
    report: (SecretSourceWarning) -> Void
  ) throws(SecretSourceError) -> SecureBuffer {
    let ending: SourcePath.Ending
    switch SourcePath.walk(path) {
    case .success(let found): ending = found
    case .failure(let link): throw .unsafeLink(what, link: link.path, owner: link.owner)
    }
    let descriptor: Int32
    switch System.openForReading(path, nonBlocking: true) {
    case .success(let opened): descriptor = opened
    case .failure(let errno): throw .cannotOpen(what, errno: errno)
    }
    defer { System.close(descriptor) }
    var warning: SecretSourceWarning?
    let kind: SourceSystem.FileKind
    switch SourceSystem.fileKind(descriptor) {
    case .failure(let errno): throw .cannotOpen(what, errno: errno)
    case .success(let found): kind = found
    }
    switch ending {
    case .file(let identity) where identity != kind.identity: throw .changedWhileOpened(what)
    case .unresolved: throw .changedWhileOpened(what)
    case .file, .processLink: break
    }
    if kind.isProcessFile { throw .processFile(what) }
    if kind.isDirectory { throw .isDirectory(what) }
    if kind.isTerminal { throw .isTerminal(what) }
    if check == .ownerAndMode {
      if kind.owner != SourceSystem.effectiveUser && kind.owner != 0 {
        throw .unsafeOwner(what, owner: kind.owner)
      }
      if kind.permissions & 0o022 != 0 {
        throw .unsafePermissions(what, permissions: kind.permissions)
      }
      if kind.permissions & 0o044 != 0 {
        warning = .readableByOthers(path: path, permissions: kind.permissions)
      }
    }
    var secret: SecureBuffer
    if kind.isRegularFile {
      do { secret = try SecureBuffer(capacity: min(limit + 1, 4096), storage: storage) } catch {
        throw .secureMemory(error)
      }
      do { try secret.read(from: descriptor, upTo: limit + 1) } catch {
        throw .readFailed(what, error)
      }
      switch extent {
      case .firstLine: try keepFirstLine(of: &secret, named: what, limit: limit)
      case .wholeFile: try checkLength(of: &secret, named: what, limit: limit)
      }
    } else {
      // A FIFO or a device: a line as it comes, within the deadline.
      switch try readLine(
        from: descriptor, named: what, maximumCount: limit, timeout: timeout, storage: storage)
      {
      case .line(let line): secret = line
      case .endOfInput: throw .empty(what)
      case .timedOut: throw .timedOut(what)
      }
      if secret.isEmpty { throw .empty(what) }
    }
    if let warning { report(warning) }
    return secret
  }

  /// Cuts `secret` to its first line (without the LF and a CR before it),
  /// wiping the rest; throws when that line is longer than `limit` or empty.
  static func keepFirstLine(
    of secret: inout SecureBuffer, named what: String, limit: Int, allowsEmpty: Bool = false
  ) throws(SecretSourceError) {
    let lineFeed = secret.withUnsafeBytes(Self.firstLineFeed)
    wipeStack(byteCount: 1024)
    if let lineFeed {
      secret.removeSubrange(lineFeed..<secret.count)
      if secret.count > 0 && secret.withUnsafeBytes(Self.endsWithCarriageReturn) {
        secret.removeSubrange((secret.count - 1)..<secret.count)
      }
    }
    try checkLength(of: &secret, named: what, limit: limit, allowsEmpty: allowsEmpty)
  }

  /// Throws `SecretSourceError.Code.containsNul` when `secret` holds a NUL
  /// byte: the one rule for every source. The caller drops the secret, which
  /// wipes it.
  static func refuseNUL(in secret: borrowing SecureBuffer, from what: String)
    throws(SecretSourceError)
  {
    let nul = secret.withUnsafeBytes(Self.firstNUL)
    wipeStack(byteCount: 1024)
    if nul != nil { throw .containsNul(what) }
  }

  /// Throws when what is kept of `secret` is longer than `limit` (wiping it)
  /// or empty (unless `allowsEmpty`).
  static func checkLength(
    of secret: inout SecureBuffer, named what: String, limit: Int, allowsEmpty: Bool = false
  ) throws(SecretSourceError) {
    if secret.count > limit {
      secret.removeAll()
      throw .tooLong(what, limit: limit)
    }
    if secret.isEmpty && !allowsEmpty { throw .empty(what) }
  }

  @inline(never)
  static func firstNUL(_ bytes: UnsafeRawBufferPointer) -> Int? {
    bytes.firstIndex(of: 0)
  }

  /// The offset of the first LF in `bytes`; only the positions of line feeds
  /// leave the window.
  @inline(never)
  static func firstLineFeed(_ bytes: UnsafeRawBufferPointer) -> Int? {
    bytes.firstIndex(of: 0x0A)
  }

  /// The variable's value, copied into secure memory, then every entry of
  /// that name in the environment block overwritten in place
  /// (`sodium_memzero`) and unset. An empty or too long value is left as it
  /// is.
  ///
  /// `execve` can give a process a block with one name twice; `getenv` (and
  /// so the value taken) is the first, and `/proc/PID/environ` shows them
  /// all: each is wiped (``scrubEnvironment(_:in:)``).
  static func takeEnvironmentVariable(
    _ name: String, limit: Int, storage: SecureStorage
  ) throws(SecretSourceError) -> SecureBuffer {
    let what = "the environment variable \(name)"
    guard let value = SourceSystem.environmentValueBytes(name) else { throw .notSet(what) }
    if value.isEmpty { throw .empty(what) }
    if value.count > limit { throw .tooLong(what, limit: limit) }
    let secret: SecureBuffer
    do { secret = try SecureBuffer(copying: UnsafeRawBufferPointer(value), storage: storage) } catch
    {
      throw .secureMemory(error)
    }
    secureZero(value)
    scrubEnvironment(name, in: SourceSystem.environment)
    SourceSystem.removeEnvironmentVariable(name)
    return secret
  }

  /// Overwrites with zeros the value of every entry `name=...` of the
  /// environment block `environment` (a NULL-terminated array of
  /// `NAME=value` strings, as `environ` or an `execve` block), in place;
  /// the names and the other entries stay as they are.
  ///
  /// - Complexity: O(bytes of the block).
  @_spi(Fuzzing)
  public static func scrubEnvironment(
    _ name: String, in environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) {
    for value in SourceSystem.environmentValues(name, in: environment) { secureZero(value) }
  }
}
