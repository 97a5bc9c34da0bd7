import Foundation
import Glibc
import PTYSupport

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
  private let holder = Process()

  /// True when namespaces and mounts can be made here (root, `unshare`,
  /// `nsenter` and systemd's tools installed).
  static let isAvailable: Bool =
    getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0
    && access("/usr/bin/nsenter", X_OK) == 0 && access(askPasswordPath, X_OK) == 0

  static let askPasswordPath = "/usr/bin/systemd-ask-password"
  static let ttyAgentPath = "/usr/bin/systemd-tty-ask-password-agent"

  init() throws {
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    // Over the directory when it exists; else over /run, which then gets one.
    holder.arguments = [
      "-m", "--propagation", "private", "sh", "-c",
      "{ mount -t tmpfs -o mode=0755 none /run/systemd/ask-password 2>/dev/null"
        + " || { mount -t tmpfs -o mode=0755 none /run && mkdir -p /run/systemd/ask-password; }; }"
        + " && echo ready && exec sleep 1000000",
    ]
    let output = Pipe()
    holder.standardOutput = output
    holder.standardError = FileHandle.nullDevice
    holder.standardInput = FileHandle.nullDevice
    try holder.run()
    let line = output.fileHandleForReading.readData(ofLength: 6)
    guard String(decoding: line, as: UTF8.self) == "ready\n" else {
      holder.terminate()
      throw HarnessError("the namespace holder could not mount a tmpfs")
    }
    holderID = holder.processIdentifier
    outsideDirectory = "/proc/\(holderID)/root\(directory)"
  }

  deinit {
    kill(holderID, SIGKILL)
    holder.waitUntilExit()
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
  private let process = Process()
  private let output = Pipe()
  private var holdingDescriptor: Int32 = -1

  /// Starts it. With `holdingOutput`, its standard output is a pipe filled to
  /// the brim first, so that once answered it blocks writing the password,
  /// with the password in its memory, until ``release()``.
  init(namespace: AskPasswordNamespace, arguments: [String], holdingOutput: Bool) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
    process.arguments = namespace.inside(
      [AskPasswordNamespace.askPasswordPath, "--no-tty"] + arguments)
    process.standardInput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    if holdingOutput {
      let descriptor = output.fileHandleForWriting.fileDescriptor
      let flags = fcntl(descriptor, F_GETFL)
      _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
      let filler = [UInt8](repeating: 0, count: 4096)
      while filler.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
      _ = fcntl(descriptor, F_SETFL, flags)
      holdingDescriptor = descriptor
    }
    process.standardOutput = output
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// The asker's process ID (nsenter `exec`s it, so the same).
  var processID: Int32 { process.processIdentifier }

  /// Waits until it blocks writing to its full standard output: answered.
  func waitUntilBlockedWriting() throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
      let syscall = (try? String(contentsOfFile: "/proc/\(processID)/syscall", encoding: .utf8))
      if syscall?.split(separator: " ").first == "1" { return }  // write(2) on x86_64
      guard ContinuousClock.now < deadline, process.isRunning else {
        throw HarnessError("the asker did not block writing its answer (\(syscall ?? "gone"))")
      }
      usleep(10_000)
    }
  }

  /// Waits for its end: its exit status and what it printed (past the filler).
  func finish() -> (status: Int32, output: [UInt8]) {
    if holdingDescriptor >= 0 { try? output.fileHandleForWriting.close() }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var bytes = [UInt8](data)
    if holdingDescriptor >= 0 { bytes = Array(bytes.drop { $0 == 0 }) }
    return (process.terminationStatus, bytes)
  }
}
