import Glibc

@_silgen_name("pipe2")
private func pipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// The kernel keyring seen through keyutils' own `keyctl` program: an oracle
/// that does not lean on the code under test, and the cleanup of every key a
/// test makes.
///
/// The user keyring of root is shared with every other test on the machine, so
/// each test names its keys with ``uniqueName(_:)`` and removes them with
/// ``remove(_:)`` in a `defer` (and gives them a short timeout as a backstop).
public enum KeyringOracle {
  /// keyutils' `keyctl`.
  public static let program = "/usr/bin/keyctl"

  /// True when `keyctl` is installed and the user keyring answers.
  public static let isAvailable: Bool = {
    access(program, X_OK) == 0 && run(["show", "@u"]).status == 0
  }()

  /// A key name no other test uses: `secretfield-test-LABEL-PID-RANDOM`.
  public static func uniqueName(_ label: String) -> String {
    "secretfield-test-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The serial of the live key of type `user` called `name` in the user
  /// keyring, or nil when there is none (never stored, removed, expired).
  public static func serial(_ name: String) -> Int? {
    let result = run(["search", "@u", "user", name])
    guard result.status == 0 else { return nil }
    return Int(String(decoding: result.output, as: UTF8.self).filter(\.isNumber))
  }

  /// The key's payload bytes (`keyctl pipe`), or nil when it cannot be read.
  public static func payload(_ name: String) -> [UInt8]? {
    guard let serial = serial(name) else { return nil }
    let result = run(["pipe", String(serial)])
    return result.status == 0 ? result.output : nil
  }

  /// The key's permission mask, from `keyctl rdescribe` (`user;UID;GID;PERM;NAME`).
  public static func permissions(_ name: String) -> UInt32? {
    guard let serial = serial(name) else { return nil }
    let result = run(["rdescribe", String(serial)])
    let fields = String(decoding: result.output, as: UTF8.self).split(separator: ";")
    guard result.status == 0, fields.count >= 4 else { return nil }
    return UInt32(fields[3], radix: 16)
  }

  /// Adds a key of type `user` called `name` with `payload` (as another program
  /// would, with the kernel's default permissions) and a timeout.
  @discardableResult
  public static func add(_ name: String, payload: [UInt8], timeoutSeconds: Int = 60) -> Int? {
    let result = run(["padd", "user", name, "@u"], input: payload)
    guard result.status == 0,
      let serial = Int(String(decoding: result.output, as: UTF8.self).filter(\.isNumber))
    else { return nil }
    _ = run(["timeout", String(serial), String(timeoutSeconds)])
    return serial
  }

  /// Sets the key's permission mask (`keyctl setperm`).
  public static func setPermissions(_ name: String, _ mask: UInt32) -> Bool {
    guard let serial = serial(name) else { return false }
    return run(["setperm", String(serial), "0x" + String(mask, radix: 16)]).status == 0
  }

  /// Removes the key called `name` if there is one (`keyctl invalidate`).
  public static func remove(_ name: String) {
    if let serial = serial(name) { _ = run(["invalidate", String(serial)]) }
  }

  /// Waits until no live key is called `name`, looking every 50 ms for at
  /// most `bound`: the bound catches a key that never goes; it measures
  /// nothing. True when the key went.
  public static func waitUntilGone(_ name: String, bound: Duration = .seconds(60)) -> Bool {
    let deadline = ContinuousClock.now + bound
    while serial(name) != nil {
      guard ContinuousClock.now < deadline else { return false }
      usleep(50_000)
    }
    return true
  }

  /// What a run of `keyctl` printed and how it ended.
  public struct Run: Sendable {
    /// The exit status, or -1 when it did not exit normally.
    public var status: Int32
    /// Standard output.
    public var output: [UInt8]
    /// Standard error.
    public var error: [UInt8]
  }

  /// Runs `keyctl ARGUMENTS` (or `program` when given), standard input from
  /// `input`, and waits for it.
  public static func run(_ arguments: [String], input: [UInt8] = [], program: String = program)
    -> Run
  {
    runProgram([program] + arguments, input: input)
  }
}

/// Runs `argv` with this process's environment, `input` on standard input,
/// and collects standard output and error until it exits (test plumbing, no
/// secret of the code under test passes through it).
public func runProgram(_ argv: [String], input: [UInt8] = []) -> KeyringOracle.Run {
  var stdinPipe: [Int32] = [0, 0]
  var stdoutPipe: [Int32] = [0, 0]
  var stderrPipe: [Int32] = [0, 0]
  guard pipe2(&stdinPipe, O_CLOEXEC) == 0, pipe2(&stdoutPipe, O_CLOEXEC) == 0,
    pipe2(&stderrPipe, O_CLOEXEC) == 0
  else { return KeyringOracle.Run(status: -1, output: [], error: []) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
  posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
  posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
  var pid: pid_t = 0
  var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
  let spawned = posix_spawn(&pid, argv[0], &actions, nil, &pointers, environ)
  for pointer in pointers { free(pointer) }
  close(stdinPipe[0])
  close(stdoutPipe[1])
  close(stderrPipe[1])
  if spawned == 0 && !input.isEmpty {
    input.withUnsafeBytes { _ = write(stdinPipe[1], $0.baseAddress, $0.count) }
  }
  close(stdinPipe[1])
  let output = readToEnd(stdoutPipe[0])
  let error = readToEnd(stderrPipe[0])
  close(stdoutPipe[0])
  close(stderrPipe[0])
  guard spawned == 0 else { return KeyringOracle.Run(status: -1, output: [], error: []) }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  let exited = status & 0x7f == 0
  return KeyringOracle.Run(
    status: exited ? (status >> 8) & 0xff : -1, output: output, error: error)
}

private func readToEnd(_ descriptor: Int32) -> [UInt8] {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if got < 0 && errno == EINTR { continue }
    if got <= 0 { return bytes }
    bytes += chunk[..<got]
  }
}
