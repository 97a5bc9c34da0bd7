import Glibc
import PTYSupport
import TestSupport
import Testing

/// Git as a user runs it from a shell, with our helper: each command the
/// program in a pty (so the helper git starts has the pty as its terminal),
/// with a temporary `HOME`, `GIT_CONFIG_NOSYSTEM=1` (the machine's git
/// configuration is neither read nor written), `GIT_TERMINAL_PROMPT=0` (a
/// helper that gives nothing makes git fail rather than ask in its own way),
/// and the helper named by a path of its own: a link called
/// `git-credential-secretfield` to the built `secretfield`, in the client's
/// directory, which no other test's processes have in their command lines.
final class CredentialGitClient {
  let directory: TemporaryDirectory
  /// The link git runs.
  let helper: String
  /// Arguments after the helper's path (`--timeout 2`).
  var helperArguments: [String] = []
  /// `credential.useHttpPath`.
  var useHttpPath = false
  /// Variables added to git's environment, which the helper inherits.
  var environment: [String: String] = [:]
  private var clones = 0

  /// The built tools and pieces the tests need.
  static let isAvailable =
    isExecutable("/usr/bin/git") && isExecutable("/usr/lib/git-core/git-http-backend")
    && isExecutable("/usr/bin/python3") && KeyringOracle.isAvailable

  init() throws {
    directory = try TemporaryDirectory()
    helper = directory.path + "/git-credential-secretfield"
    guard symlink(secretfield, helper) == 0, mkdir(directory.path + "/home", 0o700) == 0 else {
      throw HarnessError("cannot set up \(directory.path)")
    }
  }

  /// Git's environment.
  var gitEnvironment: [String: String] {
    [
      "HOME": directory.path + "/home", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
      "PATH": "/usr/bin:/bin",
    ].merging(environment) { $1 }
  }

  /// `-c` options that make our helper git's only one.
  var configuration: [String] {
    let command = ([helper] + helperArguments).joined(separator: " ")
    return [
      "-c", "credential.helper=", "-c", "credential.helper=\(command)", "-c",
      "credential.useHttpPath=\(useHttpPath)",
    ]
  }

  /// `git clone URL` into a new directory, started in a pty; standard output
  /// and error captured.
  func clone(_ url: String) throws -> TerminalSession {
    clones += 1
    var options = TerminalSession.Options()
    options.environment = gitEnvironment
    options.standardOutput = .captured
    options.standardError = .captured
    return try TerminalSession(
      executable: "/usr/bin/git",
      arguments: configuration + ["clone", "-q", url, directory.path + "/clone\(clones)"],
      options: options)
  }

  /// Clones `url`, answers the helper's form with `user` and `password`,
  /// and expects the clone to succeed.
  func clone(
    _ url: String, answering user: String, password: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let clone = try clone(url)
    try answerCredentialForm(clone, user: user, password: password)
    try expectSuccess(clone, sourceLocation: sourceLocation)
  }

  /// `git credential fill` with `request` on its standard input, in a pty.
  func fill(_ request: String) throws -> TerminalSession {
    var options = TerminalSession.Options()
    options.environment = gitEnvironment
    options.standardInput = .bytes(Array(request.utf8))
    options.standardOutput = .captured
    options.standardError = .captured
    return try TerminalSession(
      executable: "/usr/bin/git", arguments: configuration + ["credential", "fill"],
      options: options)
  }

  /// The helper's processes now: those whose executable is the built
  /// `secretfield` and whose command line names this client's link.
  func helperProcesses() -> [Int32] {
    let target = realPath(secretfield)
    return processIDs().filter { pid in
      guard let line = try? readText("/proc/\(pid)/cmdline") else { return false }
      return line.contains(helper) && realPath("/proc/\(pid)/exe") == target
    }
  }
}

/// Waits until the helper's form is on the screen, types the user name (when
/// given: nil when git sent one, which the form shows filled in and passes
/// over) and the password into it, and submits.
func answerCredentialForm(
  _ session: TerminalSession, user: String?, password: String
) throws {
  try waitForCredentialForm(session)
  if let user {
    try session.type(user)
    try session.waitForScreen("the user name") { $0.lines.contains("Username: \(user)") }
    try session.type(Key.enter)
  }
  try session.type(password)
  try session.waitForMasks(password.count)
  try session.type(Key.enter)
}

/// Waits for the end of `session` and expects exit status 0; its standard
/// error goes in the message when not.
func expectSuccess(
  _ session: TerminalSession, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let status = try session.waitForExit()
  let error = try session.standardError()
  #expect(status == .exited(0), "\(what) \(error)", sourceLocation: sourceLocation)
}

/// Waits until the helper's form, both fields, is on the screen.
@discardableResult
func waitForCredentialForm(_ session: TerminalSession) throws -> ScreenSnapshot {
  try session.waitForScreen("the helper's form") {
    $0.lines.contains { $0.hasPrefix("Username:") }
      && $0.lines.contains { $0.hasPrefix("Password:") }
  }
}

/// The IDs of the processes in `/proc`.
func processIDs() -> [Int32] {
  guard let directory = opendir("/proc") else { return [] }
  defer { closedir(directory) }
  var found: [Int32] = []
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if let pid = Int32(name) { found.append(pid) }
  }
  return found
}

/// Where `path` leads, links followed; "" when it cannot be resolved.
func realPath(_ path: String) -> String {
  guard let resolved = realpath(path, nil) else { return "" }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// The one-letter state of process `pid` (`R`, `S`, `T` for stopped), from
/// `/proc/PID/stat`; nil when it is gone.
func processState(_ pid: Int32) -> Character? {
  guard let stat = try? readText("/proc/\(pid)/stat"),
    let close = stat.lastIndex(of: ")")
  else { return nil }
  return stat[stat.index(close, offsetBy: 2)...].first
}

/// Waits until `condition` holds, looking every 20 ms, for at most `bound`
/// (which catches a hang; it measures nothing). True when it came.
func waitFor(_ bound: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now + bound
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    usleep(20_000)
  }
  return true
}
