public import SecureMemory
import SystemCalls

/// Where a secret comes from, each source read straight into a
/// `SecureBuffer`: standard input, a file, a descriptor, an environment
/// variable, a systemd credential, a command's output, the kernel keyring, or
/// a front end that asks the user (the terminal prompt, added by
/// `SecretFieldTerminal` as `.terminal(_:)`).
///
/// ```swift
/// let password = try SecretSource.firstAvailable([
///   .environment(name: "TOOL_PASSWORD"), .credential(name: "tool-password"),
///   .terminal(PromptConfiguration(prompt: "Password:")),
/// ]).obtain()
/// ```
///
/// Every source refuses what would show the secret or let someone else choose
/// it (a terminal that echoes, a file others can write), takes at most
/// ``maximumByteCount`` bytes, and gives one line: a line feed ends the secret,
/// and a carriage return before it is not part of it either. A secret that
/// holds a NUL byte is refused, from every source
/// (`SecretSourceError.Code.containsNul`): a program that takes it as a C
/// string would see only what comes before. On any failure what was read is
/// wiped, and the error says what to do.
///
/// `SecretSource(specification:)` reads the `env:NAME`, `file:PATH`... forms a
/// command line names them by.
public enum SecretSource: Sendable, Hashable {
  /// Asks the user, through a front end: `.terminal(_:)` from
  /// `SecretFieldTerminal`, or any ``SecretAsking``. Always set.
  case asking(AnySecretAsker)
  /// One line of standard input. Refused when standard input is a terminal.
  case standardInput
  /// The first line of the file at `path` (a file without a line feed counts
  /// whole). One rule for every kind of file, FIFOs included: refused when it
  /// belongs to another user than this process's or root, or its group or
  /// others can write it (someone else could have chosen the secret), when
  /// the path goes through a link another user put in a sticky folder such
  /// as `/tmp` (the kernel's `fs.protected_symlinks` rule, whatever it is set
  /// to), when it is in `/proc`, and when it is a directory or a terminal;
  /// readable by its group or others is reported as a
  /// ``SecretSourceWarning``. Opened without blocking; a FIFO is read a line
  /// at a time, within the `lineTimeout` given to `obtain`.
  case file(path: String)
  /// One line from an open descriptor (a pipe the caller set up, as with
  /// `gpg --passphrase-fd`). Refused when it is a terminal.
  case descriptor(Int32)
  /// The value of the environment variable `name`, which is then overwritten in
  /// place in the environment block and unset: `/proc/self/environ` no longer
  /// shows it and no child inherits it. Changes the process's environment
  /// (`getenv`, `unsetenv`), which is not thread-safe: obtain it before other
  /// threads read the environment.
  case environment(name: String)
  /// A systemd service credential, the file `$CREDENTIALS_DIRECTORY/name`
  /// (`LoadCredential=`, `SetCredentialEncrypted=`), read as
  /// `systemd-ask-password --credential=` reads it: the whole file, line
  /// feeds included, so the two tools give the same secret (a file with a NUL
  /// byte is refused, where systemd would cut it there). Not set when the
  /// directory or the file is absent.
  case credential(name: String)
  /// The first line `arguments` prints (run without a shell, found on `PATH`;
  /// standard input and standard error are this process's), as
  /// `BORG_PASSCOMMAND` or git's credential helpers. The rest of its output is
  /// read and wiped, so a command such as `pass show` does not die of
  /// `SIGPIPE`. A status other than 0, a signal, or no line before `timeout` is
  /// an error that names the command.
  case command([String], timeout: Duration = .seconds(30))
  /// The first passphrase cached in the kernel keyring under `name`
  /// (`KernelKeyring`), as `systemd-ask-password --keyname=NAME
  /// --accept-cached` takes it. Not set when nothing is cached there, it
  /// expired, or the keyring cannot be reached; cache an answer with
  /// ``obtain(cachingUnder:timeout:verifiedBy:reportingWarnings:)``.
  case keyring(name: String)

  /// A source that asks the user through `asker`.
  public static func asking(_ asker: some SecretAsking) -> SecretSource {
    .asking(AnySecretAsker(asker))
  }

  /// The most bytes a secret from any source but one that asks may have: the
  /// password field's default limit (8 KiB).
  public static let maximumByteCount = 8 * 1024

  /// True when the source is there to be read: an environment variable that
  /// exists (even empty), a credential whose file exists, a key cached in the
  /// kernel keyring. Every other source is always set: a missing file is an
  /// error when read, not a reason to ask elsewhere.
  ///
  /// - Complexity: one `getenv`, one `access` for a credential, one
  ///   `KEYCTL_SEARCH` for the keyring.
  public var isSet: Bool {
    switch self {
    case .environment(let name): SourceSystem.environmentValueBytes(name) != nil
    case .credential(let name): Self.credentialPath(name).map(System.exists) ?? false
    case .keyring(let name): (try? KernelKeyring().contains(name: name)) ?? false
    default: true
    }
  }

  /// The first source of `sources` that ``isSet``, else the last one (usually
  /// one that asks, such as `.terminal(_:)`, which is always set).
  ///
  /// A source that is set and then fails when obtained (an unreadable file, a
  /// failing command) fails; it never falls back to the next.
  ///
  /// - Precondition: `sources` is not empty.
  public static func firstAvailable(_ sources: [SecretSource]) -> SecretSource {
    precondition(!sources.isEmpty, "SecretSource.firstAvailable needs at least one source")
    return sources.first(where: \.isSet) ?? sources[sources.count - 1]
  }

  /// Obtains the secret from this source, into secure memory.
  ///
  /// - Throws: ``SecretSourceError``; a cancelled prompt is
  ///   `SecretSourceError.Code.promptEnded`, with how it ended in
  ///   ``SecretSourceError/cause`` (`SecretSourceError.ending` from
  ///   `SecretFieldTerminal` reads it as a `EntryEnding`).
  public func obtain() throws(SecretSourceError) -> SecureBuffer {
    try obtain(reportingWarnings: { _ in })
  }

  /// Obtains the secret from this source, into secure memory, telling
  /// `report` what it did not refuse but the user should know.
  ///
  /// - Parameters:
  ///   - maximumByteCount: the most bytes the secret may have (a source that
  ///     asks keeps its own limit instead).
  ///   - lineTimeout: how long a line from standard input, a descriptor or a
  ///     FIFO named by a file or credential may take; nil waits without
  ///     limit. Running out is
  ///     `SecretSourceError.Code.timedOut`. A prompt and a command keep
  ///     their own timeouts.
  ///   - storage: which memory the secret is read into, from every source but
  ///     one that asks (whose configuration says); sealed by default
  ///     (`SecureStorage.sealed`: a root scan reads ciphertext only, and
  ///     using it costs no system call). With `.strongestAvailable` one rule holds for
  ///     every source, one that asks included: where the kernel offers secret
  ///     memory but the locked-memory limit refuses it, the secret is wiped
  ///     and refused (`SecretSourceError.Code.secureMemoryFailed`), never
  ///     kept in sodium memory, which root can read.
  ///   - report: called with each warning, before the secret is returned.
  /// - Throws: ``SecretSourceError``.
  public func obtain(
    maximumByteCount: Int = SecretSource.maximumByteCount, lineTimeout: Duration? = nil,
    storage: SecureStorage = .sealed,
    reportingWarnings report: (SecretSourceWarning) -> Void
  ) throws(SecretSourceError) -> SecureBuffer {
    let secret = try obtainFromSource(
      maximumByteCount: maximumByteCount, lineTimeout: lineTimeout, storage: storage,
      reportingWarnings: report)
    try Self.refuseNUL(in: secret, from: sourceName)
    try Self.requireSecretMemoryWhereOffered(secret, storage: storage)
    return secret
  }

  /// The source in an error message: `standard input`, `the credential
  /// db-password`, a file's path...
  var sourceName: String {
    switch self {
    case .asking: "the prompt"
    case .standardInput: "standard input"
    case .descriptor(let descriptor): "file descriptor \(descriptor)"
    case .file(let path): path
    case .environment(let name): "the environment variable \(name)"
    case .credential(let name): "the credential \(name)"
    case .command(let arguments, _):
      "the output of the command '\(arguments.joined(separator: " "))'"
    case .keyring(let name): "the passphrase cached under '\(name)' in the kernel keyring"
    }
  }

  /// The one rule on memory for every source: asked for
  /// `.strongestAvailable`, a secret that landed in sodium memory because the
  /// locked-memory limit refused secret memory (the kernel offers it) is
  /// wiped and refused, as a prompt refuses a limit it cannot live with; a
  /// kernel without secret memory (or a sandbox that forbids it) is no
  /// reason to refuse, and sodium memory it is.
  static func requireSecretMemoryWhereOffered(
    _ secret: borrowing SecureBuffer, storage: SecureStorage
  ) throws(SecretSourceError) {
    guard storage == .strongestAvailable else { return }
    let protection = secret.protection
    guard protection.storage != .secretMemory, let fallback = protection.secretMemoryFallback,
      fallback.code == .lockFailed
    else { return }
    throw .notSecret(fallback)
  }

  private func obtainFromSource(
    maximumByteCount: Int, lineTimeout: Duration?, storage: SecureStorage,
    reportingWarnings report: (SecretSourceWarning) -> Void
  ) throws(SecretSourceError) -> SecureBuffer {
    switch self {
    case .asking(let asker):
      return try asker.base.ask()
    case .standardInput:
      return try Self.readLine(
        from: 0, named: "standard input", limit: maximumByteCount, timeout: lineTimeout,
        storage: storage)
    case .descriptor(let descriptor):
      return try Self.readLine(
        from: descriptor, named: "file descriptor \(descriptor)", limit: maximumByteCount,
        timeout: lineTimeout, storage: storage)
    case .file(let path):
      return try Self.readFile(
        path, named: path, limit: maximumByteCount, check: .ownerAndMode, timeout: lineTimeout,
        storage: storage, report: report)
    case .environment(let name):
      return try Self.takeEnvironmentVariable(name, limit: maximumByteCount, storage: storage)
    case .credential(let name):
      guard let path = Self.credentialPath(name), System.exists(path) else {
        throw .notSet("the credential \(name)")
      }
      return try Self.readFile(
        path, named: "the credential \(name)", limit: maximumByteCount, check: .none,
        extent: .wholeFile, timeout: lineTimeout, storage: storage, report: report)
    case .command(let arguments, let timeout):
      return try Self.runCommand(
        arguments, timeout: timeout, limit: maximumByteCount, storage: storage)
    case .keyring(let name):
      return try Self.readKeyring(name, limit: maximumByteCount, storage: storage)
    }
  }

  /// `$CREDENTIALS_DIRECTORY/name`, or nil when the variable is unset or empty
  /// or `name` could leave the directory.
  static func credentialPath(_ name: String) -> String? {
    guard let directory = System.environmentValue("CREDENTIALS_DIRECTORY"),
      !directory.isEmpty, !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")),
      !isDotOrDotDot(name)
    else { return nil }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
