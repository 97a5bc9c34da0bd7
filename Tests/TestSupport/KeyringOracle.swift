import Glibc
import SecureMemory
public import Testing

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
    return Int(result.output.filter(\.isNumber))
  }

  /// The key's payload bytes (`keyctl pipe`), or nil when it cannot be read.
  public static func payload(_ name: String) -> [UInt8]? {
    guard let serial = serial(name) else { return nil }
    let result = run(["pipe", String(serial)])
    return result.status == 0 ? result.outputBytes : nil
  }

  /// The key's permission mask, from `keyctl rdescribe` (`user;UID;GID;PERM;NAME`).
  public static func permissions(_ name: String) -> UInt32? {
    guard let serial = serial(name) else { return nil }
    let result = run(["rdescribe", String(serial)])
    let fields = result.output.split(separator: ";")
    guard result.status == 0, fields.count >= 4 else { return nil }
    return UInt32(fields[3], radix: 16)
  }

  /// Adds a key of type `user` called `name` with `payload` (as another program
  /// would, with the kernel's default permissions) and a timeout.
  @discardableResult
  public static func add(_ name: String, payload: [UInt8], timeoutSeconds: Int = 60) -> Int? {
    let result = run(["padd", "user", name, "@u"], input: payload)
    guard result.status == 0,
      let serial = Int(result.output.filter(\.isNumber))
    else { return nil }
    _ = run(["timeout", String(serial), String(timeoutSeconds)])
    return serial
  }

  /// Sets the key's permission mask (`keyctl setperm`).
  public static func setPermissions(_ name: String, _ mask: UInt32) -> Bool {
    guard let serial = serial(name) else { return false }
    return run(["setperm", String(serial), "0x" + String(mask, radix: 16)]).status == 0
  }

  /// Expects that another user (`keyctl pipe` run as nobody) cannot read
  /// the key `name`, and, the control, that the same reader gets `payload`
  /// once others may view and read it. Needs root.
  public static func expectOtherUserCannotRead(
    _ name: String, payload: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    guard let serial = serial(name) else {
      Issue.record("no live key \(name)", sourceLocation: sourceLocation)
      return
    }
    let asNobody = [
      "--reuid=\(nobodyID)", "--regid=\(nobodyID)", "--clear-groups", program, "pipe",
      String(serial),
    ]
    let denied = run(asNobody, program: "/usr/bin/setpriv")
    #expect(denied.status != 0, sourceLocation: sourceLocation)
    #expect(denied.output.isEmpty, sourceLocation: sourceLocation)
    #expect(denied.error.contains("Permission denied"), sourceLocation: sourceLocation)

    #expect(
      setPermissions(name, KernelKeyring.permissions | 0x03), sourceLocation: sourceLocation)
    let allowed = run(asNobody, program: "/usr/bin/setpriv")
    #expect(allowed.status == 0, sourceLocation: sourceLocation)
    #expect(allowed.outputBytes == payload, sourceLocation: sourceLocation)
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

  /// Runs `keyctl ARGUMENTS` (or `program` when given), standard input from
  /// `input`, and waits for it.
  public static func run(_ arguments: [String], input: [UInt8] = [], program: String = program)
    -> ProgramRun
  {
    do {
      return try runProgram([program] + arguments, input: input)
    } catch {
      return ProgramRun(
        termination: .exited(127), outputBytes: [], errorBytes: Array("\(error)".utf8))
    }
  }
}
