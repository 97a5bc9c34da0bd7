import Foundation
import Glibc
import PTYSupport
import TestSupport

/// A private mount namespace with a tmpfs over `/run/systemd/ask-password`,
/// held open by a sleeping process, where the real `systemd-ask-password`
/// asks and our agent answers: no test sees or answers a request of the
/// machine, and the machine never sees the tests' requests.
///
/// Started with `unshare -m --propagation private`; askers and agents enter
/// it with `nsenter -t HOLDER -m` (which `exec`s, so a pty session's process
/// is the agent itself). The test reaches the directory from outside through
/// `/proc/HOLDER/root`. Dropping it kills the holder; the tmpfs goes with the
/// namespace's last process.
final class AskPasswordNamespace {
  /// The holder's process ID.
  let holderID: Int32
  /// The request directory as the namespace sees it.
  let directory = "/run/systemd/ask-password"
  /// The same directory seen from the test, through `/proc/HOLDER/root`.
  let outsideDirectory: String
  private let holder: TestProcess

  /// True when namespaces and mounts can be made here (root, `unshare`,
  /// `nsenter` and systemd's tools installed).
  static let isAvailable: Bool =
    getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0
    && access("/usr/bin/nsenter", X_OK) == 0 && access(askPasswordPath, X_OK) == 0

  static let askPasswordPath = "/usr/bin/systemd-ask-password"
  static let ttyAgentPath = "/usr/bin/systemd-tty-ask-password-agent"

  init() throws {
    // Over the directory when it exists; else over /run, which then gets one.
    holder = try TestProcess(
      [
        "/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
        "{ mount -t tmpfs -o mode=0755 none /run/systemd/ask-password 2>/dev/null"
          + " || { mount -t tmpfs -o mode=0755 none /run && mkdir -p /run/systemd/ask-password; }; }"
          + " && echo ready && exec sleep 1000000",
      ], standardError: .null)
    guard holder.waitForOutput(containing: "ready\n") else {
      throw HarnessError("the namespace holder could not mount a tmpfs")
    }
    holderID = holder.processID
    outsideDirectory = "/proc/\(holderID)/root\(directory)"
  }

  /// `nsenter -t HOLDER -m --` and `command`: runs `command` inside.
  func inside(_ command: [String]) -> [String] {
    ["-t", String(holderID), "-m", "--"] + command
  }

  /// The `ask.*` files now in the directory.
  func requestFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: outsideDirectory)) ?? [])
      .filter { $0.hasPrefix("ask.") }.sorted()
  }

  /// Waits until `count` `ask.*` files are there (a generous bound on a hang,
  /// not a measure of speed).
  func waitForRequests(_ count: Int) throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while requestFiles().count < count {
      guard ContinuousClock.now < deadline else {
        throw HarnessError("\(count) requests did not appear; there are \(requestFiles())")
      }
      usleep(10_000)
    }
  }

  /// Starts the real `systemd-ask-password --no-tty MESSAGE` inside, and
  /// waits until its request file is there.
  func ask(_ message: String, options: [String] = [], holdingOutput: Bool = false) throws
    -> Asker
  {
    let before = requestFiles().count
    let asker = try Asker(
      namespace: self, arguments: options + [message], holdingOutput: holdingOutput)
    try waitForRequests(before + 1)
    return asker
  }

  /// `secretfield agent ARGUMENTS` inside, on a pty; standard output and
  /// error captured.
  func startAgent(
    _ arguments: [String], options: TerminalSession.Options = TerminalSession.Options(),
    executable: String = builtExecutable("secretfield")
  ) throws -> TerminalSession {
    var options = options
    options.standardOutput = .captured
    options.standardError = .captured
    let command = executable.hasSuffix("/secretfield") ? [executable, "agent"] : [executable]
    return try TerminalSession(
      executable: "/usr/bin/nsenter", arguments: inside(command + arguments), options: options)
  }

  /// `secretfield agent --query` inside, on a pty (``startAgent(_:options:executable:)``),
  /// once it shows `text`.
  func startQueryAgent(
    waitingFor text: String, executable: String = builtExecutable("secretfield")
  ) throws -> TerminalSession {
    let session = try startAgent(["--query"], executable: executable)
    try session.waitForText(text)
    return session
  }

  /// Writes a request file by hand, as `ask.NAME`, renamed into place as
  /// systemd does.
  func writeRequest(_ name: String, _ text: String) throws {
    let temporary = outsideDirectory + "/.tmp." + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, outsideDirectory + "/" + name) == 0 else {
      throw HarnessError("rename to \(name): \(String(cString: strerror(errno)))")
    }
  }
}

/// A `systemd-ask-password --no-tty` waiting for its answer.
final class Asker {
  private let process: TestProcess
  /// The bytes of filler in its standard output before its answer.
  private var filler = 0

  /// Starts it. With `holdingOutput`, its standard output is a pipe filled to
  /// the brim first, so that once answered it blocks writing the password,
  /// with the password in its memory, until ``release()``.
  init(namespace: AskPasswordNamespace, arguments: [String], holdingOutput: Bool) throws {
    process = try TestProcess(
      ["/usr/bin/nsenter"]
        + namespace.inside([AskPasswordNamespace.askPasswordPath, "--no-tty"] + arguments),
      standardError: .null, holdsOutput: holdingOutput)
    if holdingOutput { filler = try process.fillOutput() }
  }

  /// The asker's process ID (nsenter `exec`s it, so the same).
  var processID: Int32 { process.processID }

  /// Waits until it blocks writing to its full standard output: answered.
  func waitUntilBlockedWriting() throws {
    try process.waitUntilBlockedWriting(to: nil, within: .seconds(30))
  }

  /// Waits for its end: its exit status and what it printed (past the
  /// filler); status -1 and nothing when it hung.
  func finish() -> (status: Int32, output: [UInt8]) {
    guard let run = try? process.finish() else { return (-1, []) }
    return (run.status, Array(run.outputBytes.dropFirst(filler)))
  }
}
