import Glibc
public import Testing

@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func addChangeDirectory(
  _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(
  _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32
) -> Int32

/// glibc's `POSIX_SPAWN_SETSID` (0x80), declared only under `_GNU_SOURCE`.
private let spawnInNewSession: Int32 = 0x80

/// A program a test starts: the one way every test target starts one.
///
/// It starts with `posix_spawn`, every signal unblocked and at its default
/// action (the test runner's threads block some, `SIGURG` and `SIGALRM`
/// among them, and a child inherits the mask: an Xvfb with `SIGALRM` blocked
/// never serves its first client). The pipes it makes are close-on-exec from
/// birth, so no other program started meanwhile (tests run in parallel) holds
/// an end of them and a read to the end ends with this program.
///
/// Every wait is for an event (the program's end, a text it writes, a
/// system call it blocks in), bounded by a limit that guards against a
/// program that hangs: past it the program is killed and the wait throws a
/// ``HarnessError``. The limit asserts nothing about speed.
public final class TestProcess {
  /// The process ID.
  public let processID: Int32
  /// What the program was started as, for messages.
  public let arguments: [String]
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var error: Int32 = -1
  private var outputWriteEnd: Int32 = -1
  private var outputBytes: [UInt8] = []
  private var errorBytes: [UInt8] = []
  private var rawStatus: Int32?

  /// A write to a program that already closed its input fails with `EPIPE`
  /// instead of killing the test runner, which holds every suite: a program
  /// that ends early is a test's failure, not the run's. Children get every
  /// signal at its default, so they still die of `SIGPIPE`.
  private static let brokenPipesIgnored: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

  /// Starts `arguments` (the first found in `PATH` unless it is a path).
  ///
  /// - Parameters:
  ///   - environment: exactly these variables, or the test process's own
  ///     changed by some.
  ///   - standardInput: `/dev/null` unless said otherwise.
  ///   - standardOutput, standardError: pipes the test reads unless said
  ///     otherwise.
  ///   - newSession: the program starts a session of its own
  ///     (`POSIX_SPAWN_SETSID`), so it has no controlling terminal, as a
  ///     pinentry started by gpg-agent has none.
  ///   - directory: the program's working directory; the test's own when nil.
  ///   - holdsOutput: the test keeps the write end of the output pipe too,
  ///     to fill it (``fillOutput()``) so that the program's next write
  ///     blocks.
  public init(
    _ arguments: [String], environment: Environment = .inherited,
    standardInput: Input = .null, standardOutput: Output = .pipe,
    standardError: Output = .pipe, newSession: Bool = false, directory: String? = nil,
    holdsOutput: Bool = false
  ) throws {
    precondition(!arguments.isEmpty, "TestProcess: no program")
    _ = Self.brokenPipesIgnored
    self.arguments = arguments
    let program = arguments[0].contains("/") ? arguments[0] : Self.path(of: arguments[0])
    guard let program else { throw HarnessError("\(arguments[0]) is not installed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // The child's ends, closed here once it has them.
    var childEnds: [Int32] = []
    var ownEnds: [Int32] = []
    defer { for end in childEnds { close(end) } }
    func pipe() throws -> (read: Int32, write: Int32) {
      var ends: [Int32] = [-1, -1]
      guard systemPipe2(&ends, O_CLOEXEC) == 0 else {
        for end in ownEnds { close(end) }
        throw HarnessError("pipe2: \(String(cString: strerror(errno)))")
      }
      return (ends[0], ends[1])
    }
    var pendingInput: [UInt8]?
    switch standardInput {
    case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    case .inherit: break
    case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
    case .bytes(let bytes), .pipe(let bytes):
      let ends = try pipe()
      childEnds.append(ends.read)
      ownEnds.append(ends.write)
      input = ends.write
      posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
      // F_SETPIPE_SZ: room for the bytes before the program reads.
      _ = fcntl(ends.write, 1031, Int32(1 << 20))
      pendingInput = bytes
    }
    for (target, request) in [(Int32(1), standardOutput), (2, standardError)] {
      switch request {
      case .pipe:
        let ends = try pipe()
        ownEnds.append(ends.read)
        if target == 1 { output = ends.read } else { error = ends.read }
        if target == 1 && holdsOutput {
          outputWriteEnd = ends.write
          ownEnds.append(ends.write)
        } else {
          childEnds.append(ends.write)
        }
        posix_spawn_file_actions_adddup2(&actions, ends.write, target)
      case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
      case .inherit: break
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor, target)
      case .file(let path):
        posix_spawn_file_actions_addopen(
          &actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      case .standardOutput:
        precondition(target == 2, "TestProcess: standard output cannot go to itself")
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
      }
    }
    if let directory { _ = addChangeDirectory(&actions, directory) }
    // Only the three streams: a descriptor another test opened without
    // O_CLOEXEC (Foundation's file writes) must not live on in a program that
    // outlasts it, where it would keep a script busy (ETXTBSY) or a pipe open.
    _ = addCloseFrom(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &everySignal)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= spawnInNewSession }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.strings.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var processID: pid_t = 0
    let spawned = posix_spawn(&processID, program, &actions, &attributes, &argv, &envp)
    guard spawned == 0 else {
      for end in ownEnds { close(end) }
      throw HarnessError("cannot start \(program): \(String(cString: strerror(spawned)))")
    }
    self.processID = processID
    if let pendingInput {
      // Written whole before the program reads: less than a pipe holds.
      Self.writeAll(pendingInput, to: input)
    }
    if case .bytes = standardInput { closeInput() }
  }

  deinit {
    if rawStatus == nil {
      kill(processID, SIGKILL)
      var raw: Int32 = 0
      while waitpid(processID, &raw, 0) < 0 && errno == EINTR {}
    }
    for descriptor in [input, output, error, outputWriteEnd] where descriptor >= 0 {
      close(descriptor)
    }
  }

  // MARK: Its state

  /// True while the program runs; it is reaped once it has ended.
  public var isRunning: Bool {
    guard rawStatus == nil else { return false }
    var raw: Int32 = 0
    let result = waitpid(processID, &raw, WNOHANG)
    guard result == processID else { return result == 0 }
    rawStatus = raw
    return false
  }

  /// How it ended, once it has; nil while it runs.
  public var termination: Termination? {
    isRunning ? nil : rawStatus.map(Termination.init(waitStatus:))
  }

  /// Waits for the program to end, reading its pipes meanwhile (a program
  /// that fills one would never end). After `limit`, a guard against a hang,
  /// it is killed and the wait throws.
  @discardableResult
  public func wait(within limit: Duration = .seconds(60)) throws -> Termination {
    let deadline = ContinuousClock.now + limit
    while isRunning {
      guard ContinuousClock.now < deadline else {
        kill(processID, SIGKILL)
        var raw: Int32 = 0
        while waitpid(processID, &raw, 0) < 0 && errno == EINTR {}
        rawStatus = raw
        drain(waitingMilliseconds: 0)
        throw HarnessError(
          "\(arguments) did not end within \(limit); it wrote \(text(outputBytes + errorBytes))")
      }
      drain(waitingMilliseconds: 10)
    }
    return Termination(waitStatus: rawStatus!)
  }

  /// Waits for the program to end, as ``wait(within:)`` does, but leaves it
  /// running after `limit`: true when it ended.
  public func waitForEnd(within limit: Duration = .seconds(60)) -> Bool {
    let deadline = ContinuousClock.now + limit
    while isRunning {
      guard ContinuousClock.now < deadline else { return false }
      drain(waitingMilliseconds: 10)
    }
    return true
  }

  /// Waits until a signal stops the program (`SIGSTOP`, or one it sent
  /// itself); throws when it ends instead, or after `limit`.
  public func waitUntilStopped(within limit: Duration = .seconds(60)) throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      guard rawStatus == nil else { throw HarnessError("\(arguments) ended instead of stopping") }
      var raw: Int32 = 0
      let result = waitpid(processID, &raw, WNOHANG | WUNTRACED)
      if result == processID {
        if raw & 0xFF == 0x7F { return }
        rawStatus = raw
        continue
      }
      drain(waitingMilliseconds: 10)
    }
    throw HarnessError("\(arguments) did not stop within \(limit)")
  }

  /// True once the program has ended; does not wait.
  public var hasEnded: Bool { !isRunning }

  /// Its exit status once it has ended (waited for, as ``wait(within:)``
  /// does); nil when a signal ended it.
  public var exitCode: Int32? { (try? wait())?.exitStatus }

  /// The signal that ended it (waited for, as ``wait(within:)`` does); nil
  /// when it exited.
  public var terminatingSignal: Int32? { (try? wait())?.signal }

  /// True when a signal ended it and the kernel wrote a core dump for it.
  public var dumpedCore: Bool {
    if case .signaled(_, coreDumped: true) = try? wait() { true } else { false }
  }

  /// Waits for the end, then reads the rest of its pipes: what it wrote and
  /// how it ended.
  public func finish(within limit: Duration = .seconds(60)) throws -> ProgramRun {
    let ending = try wait(within: limit)
    if output >= 0 { outputBytes += Self.readToEnd(output) }
    if error >= 0 { errorBytes += Self.readToEnd(error) }
    defer {
      outputBytes = []
      errorBytes = []
    }
    return ProgramRun(termination: ending, outputBytes: outputBytes, errorBytes: errorBytes)
  }

  /// Asks the program to end (`SIGTERM`), and waits for its end.
  @discardableResult
  public func end(within limit: Duration = .seconds(60)) throws -> Termination {
    signal(SIGTERM)
    return try wait(within: limit)
  }

  /// Waits for the end as ``finish(within:)`` does and expects exit
  /// `status` and exactly `output` on standard output; returns the run for
  /// more checks.
  @discardableResult
  public func finish(
    expectingStatus status: Int32, output: String, within limit: Duration = .seconds(60),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProgramRun {
    let run = try finish(within: limit)
    #expect(run.status == status, "\(run.error)", sourceLocation: sourceLocation)
    #expect(run.output == output, sourceLocation: sourceLocation)
    return run
  }

  // MARK: Its output

  /// Waits until the program has written `text` to its standard output;
  /// false when it ended first, or after `limit` (a guard against a program
  /// that never writes it).
  public func waitForOutput(containing text: String, within limit: Duration = .seconds(60))
    -> Bool
  {
    waitFor(text, in: \.outputBytes, within: limit)
  }

  /// Waits until the program has written `text` to its standard error, as
  /// ``waitForOutput(containing:within:)`` does for its output.
  public func waitForError(containing text: String, within limit: Duration = .seconds(60))
    -> Bool
  {
    waitFor(text, in: \.errorBytes, within: limit)
  }

  private func waitFor(
    _ text: String, in bytes: KeyPath<TestProcess, [UInt8]>, within limit: Duration
  ) -> Bool {
    let needle = Array(text.utf8)
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      drain(waitingMilliseconds: 0)
      if self[keyPath: bytes].firstRange(of: needle) != nil { return true }
      guard isRunning else {
        drain(waitingMilliseconds: 0)
        return self[keyPath: bytes].firstRange(of: needle) != nil
      }
      drain(waitingMilliseconds: 10)
    }
    return false
  }

  /// What the program wrote to its standard output so far.
  public func outputSoFar() -> [UInt8] {
    drain(waitingMilliseconds: 0)
    return outputBytes
  }

  /// What the program wrote to its standard error so far.
  public func errorSoFar() -> [UInt8] {
    drain(waitingMilliseconds: 0)
    return errorBytes
  }

  /// The read end of its standard output, for a test that reads it itself
  /// (then the waits above see nothing of what it read).
  public var outputDescriptor: Int32 { output }

  /// Reads what the pipes hold, waiting up to `waitingMilliseconds` for the
  /// first bytes.
  private func drain(waitingMilliseconds: Int32) {
    var requests = [output, error].filter { $0 >= 0 }.map {
      pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
    }
    guard !requests.isEmpty else {
      if waitingMilliseconds > 0 { poll(nil, 0, waitingMilliseconds) }
      return
    }
    guard poll(&requests, nfds_t(requests.count), waitingMilliseconds) > 0 else { return }
    for request in requests where request.revents != 0 {
      var chunk = [UInt8](repeating: 0, count: 65536)
      let got = chunk.withUnsafeMutableBytes { read(request.fd, $0.baseAddress, $0.count) }
      guard got > 0 else { continue }
      if request.fd == output { outputBytes += chunk[..<got] } else { errorBytes += chunk[..<got] }
    }
  }

  /// Closes the read end of its standard output, as a client that went away
  /// does: its writes fail (`EPIPE`) from then on.
  public func closeOutput() {
    if output >= 0 { close(output) }
    output = -1
  }

  /// Fills the pipe of its standard output (``init`` with `holdsOutput`) to
  /// its capacity with one write from the test's end, and closes that end:
  /// the program's next write blocks until the test reads. Returns the bytes
  /// written.
  public func fillOutput() throws -> Int {
    let capacity = fcntl(outputWriteEnd, 1032)  // F_GETPIPE_SZ
    guard capacity > 0 else { throw HarnessError("F_GETPIPE_SZ: errno \(errno)") }
    let filler = [UInt8](repeating: UInt8(ascii: "."), count: Int(capacity))
    let written = filler.withUnsafeBytes { write(outputWriteEnd, $0.baseAddress, $0.count) }
    guard written == capacity else {
      throw HarnessError("filled \(written) of \(capacity) bytes")
    }
    close(outputWriteEnd)
    outputWriteEnd = -1
    return Int(capacity)
  }

  // MARK: Its input

  /// Writes `bytes` to its standard input (``Input/pipe(_:)``).
  public func send(_ bytes: [UInt8]) {
    precondition(input >= 0, "TestProcess: standard input is not a pipe of the test's")
    Self.writeAll(bytes, to: input)
  }

  /// Closes its standard input: it reads end of file.
  public func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  // MARK: Signals and system calls

  /// Sends `signal`, while it runs.
  public func signal(_ signal: Int32) {
    if isRunning { kill(processID, signal) }
  }

  /// Waits until it is blocked in `write(2)` (x86_64's system call 1) on
  /// `descriptor`, or on any descriptor when nil, as `/proc/PID/syscall`
  /// shows, reading nothing from its pipes meanwhile. Reading that for a
  /// hardened program needs root.
  public func waitUntilBlockedWriting(
    to descriptor: Int32? = 1, within limit: Duration = .seconds(60)
  ) throws {
    let deadline = ContinuousClock.now + limit
    var call = ""
    while ContinuousClock.now < deadline {
      call = readText("/proc/\(processID)/syscall") ?? ""
      let fields = call.split(separator: " ")
      if fields.count > 1, fields[0] == "1",
        descriptor == nil || Int32(fields[1].dropFirst(2), radix: 16) == descriptor
      {
        return
      }
      guard isRunning else { throw HarnessError("\(arguments) ended instead of writing") }
      // Its pipes are left alone: a read would make the room it waits for.
      poll(nil, 0, 10)
    }
    throw HarnessError("\(arguments) never blocked writing (\(call))")
  }

  // MARK: Helpers

  /// The first executable `program` in `PATH`.
  public static func path(of program: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { return bytes }
      bytes += chunk[..<got]
    }
  }

  private func readText(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return text(Self.readToEnd(descriptor))
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension TestProcess {
  /// The environment a program starts with; a dictionary literal is
  /// ``changed(_:)``.
  public enum Environment: Sendable, ExpressibleByDictionaryLiteral {
    /// Exactly these variables.
    case exactly([String: String])
    /// The test process's own, with these changed (nil removes one).
    case changed([String: String?])
    /// Exactly these `NAME=value` entries, in this order, duplicates kept
    /// (as `execve` allows).
    case entries([String])

    /// The test process's own, unchanged.
    public static let inherited = Environment.changed([:])

    /// The test process's own, with these changed (nil removes one).
    public init(dictionaryLiteral changes: (String, String?)...) {
      self = .changed(Dictionary(changes) { _, last in last })
    }

    /// `NAME=value` strings.
    var strings: [String] {
      switch self {
      case .entries(let entries):
        return entries
      case .exactly(let variables):
        return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      case .changed(let changes):
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
          let text = String(cString: pointer)
          if let equals = text.firstIndex(of: "=") {
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
          }
          entry += 1
        }
        for (name, value) in changes { variables[name] = value }
        return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      }
    }
  }

  /// Where its standard input comes from.
  public enum Input: Sendable {
    /// `/dev/null`.
    case null
    /// The test process's own.
    case inherit
    /// A descriptor the test owns.
    case descriptor(Int32)
    /// A pipe that holds these bytes (less than a pipe holds), then ends.
    case bytes([UInt8])
    /// A pipe the test writes to (``TestProcess/send(_:)``), these bytes
    /// first, and closes (``TestProcess/closeInput()``).
    case pipe([UInt8] = [])

    /// A pipe that holds `text` as UTF-8, then ends.
    public static func text(_ text: String) -> Input { .bytes(Array(text.utf8)) }
  }

  /// Where its standard output or error goes.
  public enum Output: Sendable {
    /// A pipe the test reads.
    case pipe
    /// `/dev/null`.
    case null
    /// The test process's own.
    case inherit
    /// A descriptor the test owns.
    case descriptor(Int32)
    /// A file, created or truncated, readable by its owner alone.
    case file(String)
    /// Standard error only: where standard output goes.
    case standardOutput
  }

  /// How a program ended.
  public enum Termination: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it; `coreDumped` when the kernel wrote a core dump.
    case signaled(Int32, coreDumped: Bool)

    init(waitStatus raw: Int32) {
      let signal = raw & 0x7F
      self =
        signal == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(signal, coreDumped: raw & 0x80 != 0)
    }

    /// The exit status, or 128 + the signal, as a shell reports it.
    public var status: Int32 {
      switch self {
      case .exited(let status): status
      case .signaled(let signal, _): 128 + signal
      }
    }

    /// The exit status when it exited, nil when a signal ended it.
    public var exitStatus: Int32? {
      if case .exited(let status) = self { status } else { nil }
    }

    /// The signal that ended it, if one did.
    public var signal: Int32? {
      if case .signaled(let signal, _) = self { signal } else { nil }
    }

    /// How it ended, in words.
    public var description: String {
      switch self {
      case .exited(let status): "exited(\(status))"
      case .signaled(let signal, let core):
        "signaled(\(String(cString: strsignal(signal)))\(core ? ", core dumped" : ""))"
      }
    }
  }
}

/// What a program run to its end wrote, and how it ended.
public struct ProgramRun: Sendable {
  /// A run that ended so.
  public init(termination: TestProcess.Termination, outputBytes: [UInt8], errorBytes: [UInt8]) {
    self.termination = termination
    self.outputBytes = outputBytes
    self.errorBytes = errorBytes
  }

  /// How it ended.
  public var termination: TestProcess.Termination
  /// Its standard output, as bytes.
  public var outputBytes: [UInt8]
  /// Its standard error, as bytes.
  public var errorBytes: [UInt8]

  /// The exit status, or 128 + the signal that ended it.
  public var status: Int32 { termination.status }
  /// Its standard output, as UTF-8.
  public var output: String { String(decoding: outputBytes, as: UTF8.self) }
  /// Its standard error, as UTF-8.
  public var error: String { String(decoding: errorBytes, as: UTF8.self) }
}

/// Runs `arguments` to its end (test plumbing: nothing secret of the code
/// under test passes through it), with standard input from `input` and
/// `environment`; its output and errors read as they come.
@discardableResult
public func runProgram(
  _ arguments: [String], environment: TestProcess.Environment = .inherited,
  input: [UInt8]? = nil, newSession: Bool = false, within limit: Duration = .seconds(60)
) throws -> ProgramRun {
  try TestProcess(
    arguments, environment: environment, standardInput: input.map { .bytes($0) } ?? .null,
    newSession: newSession
  ).finish(within: limit)
}
