import Foundation
import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// What an attack on `--password-from` tried, run as the tool runs.
@Suite("secretfield --password-from under attack")
struct SourceHostileTests {
  @Test("file: naming a FIFO with no writer ends at --timeout with 124, not blocked in open")
  func fifoWithoutWriter() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("lonely")
    let run = try runWithoutTerminal([
      "prompt", "--password-from", "file:" + path, "--timeout", "1",
    ])
    #expect(run.status == .exited(124), "\(run.error)")
    #expect(run.output.isEmpty)
  }

  @Test("file: naming a FIFO any user can write is refused (exit 1), though a writer waits")
  func writableFIFO() throws {
    let directory = try SourceDirectory()
    let path = try directory.fifo("open", mode: 0o666)
    let writer = open(path, O_RDWR | O_CLOEXEC)
    defer { close(writer) }
    _ = Array("anyone's\n".utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    let run = try runWithoutTerminal(["prompt", "--password-from", "file:" + path])
    #expect(run.status == .exited(1))
    #expect(run.output.isEmpty)
    #expect(run.error.contains("can be written by its group and others"), "\(run.error)")
  }
}

/// Starts `executable ARGUMENTS` with exactly the environment block `entries`
/// (duplicates kept, as `execve` allows), no terminal, standard input and
/// output from and to `/dev/null`, and waits until it stops itself before
/// exiting (`TestHook.stopBeforeExitVariable` must be among the entries).
func spawnStopped(_ executable: String, _ arguments: [String], entries: [String]) throws
  -> TestProcess
{
  let process = try TestProcess(
    [executable] + arguments, environment: .entries(entries), standardOutput: .null,
    standardError: .null)
  try process.waitUntilStopped()
  return process
}

@Suite("secretfield --password-from env: with the name twice in the block")
struct DuplicateEnvironmentTests {
  @Test(
    "neither value stays in the tool's /proc/PID/environ; without the source both do (control)",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
  func duplicateScrubbed() throws {
    let first = "sf-first-\(UInt64.random(in: 1...UInt64.max))"
    let second = "sf-second-\(UInt64.random(in: 1...UInt64.max))"
    for scrubs in [true, false] {
      let entries = [
        "SF_PW=" + first, "PATH=/usr/bin:/bin", "SF_PW=" + second,
        TestHook.stopBeforeExitVariable + "=1", "SF_OTHER=x",
      ]
      let source = scrubs ? "env:SF_PW" : "env:SF_OTHER"
      let process = try spawnStopped(
        secretfield, ["prompt", "--password-from", source], entries: entries)
      defer {
        process.signal(SIGCONT)
        _ = try? process.wait()
      }
      let environ = try readText("/proc/\(process.processID)/environ")
      #expect(environ.contains("SF_PW="), "the name stays")
      #expect(environ.contains(first) == !scrubs, "first: scrubbed \(scrubs)")
      #expect(environ.contains(second) == !scrubs, "second: scrubbed \(scrubs)")
    }
  }
}

@Suite("secretfield --stdin and the askpass's stdin on a datagram socket")
struct DatagramInputTests {
  /// Runs `executable ARGUMENTS` with standard input the reading end of a
  /// datagram socket pair on which `text` was sent as one datagram.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    sending text: String
  ) throws -> ProgramRun {
    var ends: [Int32] = [-1, -1]
    precondition(
      socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    defer { close(ends[0]) }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { send(ends[1], $0.baseAddress, $0.count, 0) }
    // Sent and closed, as the attack did: what follows is the end.
    close(ends[1])
    return try TestProcess(
      [executable] + arguments,
      environment: .exactly(environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }),
      standardInput: .descriptor(ends[0])
    ).finish()
  }

  @Test("hunter2 sent as one datagram comes out as hunter2, exit 0")
  func promptStandardInput() throws {
    let run = try Self.run(secretfield, ["prompt", "--stdin"], sending: "hunter2\n")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "hunter2\n")
  }

  @Test("the askpass with SECRETFIELD_PASSWORD_FROM=stdin: the same")
  func askpassStandardInput() throws {
    let run = try Self.run(
      secretfieldAskpass, ["Password:"], environment: ["SECRETFIELD_PASSWORD_FROM": "stdin"],
      sending: "hunter2\n")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "hunter2\n")
  }
}
