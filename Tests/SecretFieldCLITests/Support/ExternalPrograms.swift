import Foundation
import Glibc
import PTYSupport

/// What a program run to its end printed, and how it ended.
struct ProgramRun {
  var status: Int32
  var output: String
  var error: String
}

/// Runs `executable` with `arguments` and exactly `environment`, standard
/// input from `/dev/null`, and waits for it (test plumbing: ssh-keygen,
/// ssh-add -l).
func runProgram(
  _ executable: String, _ arguments: [String], environment: [String: String]
) throws -> ProgramRun {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.environment = environment
  let output = Pipe()
  let error = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return ProgramRun(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}

/// `ssh-keygen ARGUMENTS` started and left to run while the test answers
/// what it caused (an agent's confirmation), then waited for.
final class SigningProcess {
  private let process = Process()
  private let error = Pipe()

  init(arguments: [String], environment: [String: String]) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// Waits for the end; its status and standard error.
  func finish() throws -> ProgramRun {
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProgramRun(
      status: process.terminationStatus, output: "",
      error: String(decoding: errorData, as: UTF8.self))
  }
}

/// A directory under `/tmp` with a short path (socket paths are limited to
/// 107 bytes), removed with everything in it when dropped.
final class ShortTemporaryDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/sf-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
    }
    path = String(cString: made)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// An `ssh-agent` the test started in the foreground (`-D`) on a socket in a
/// temporary directory; dropping it kills the agent and waits for it.
final class SSHAgent {
  let socket: String
  private let process = Process()

  init(in directory: ShortTemporaryDirectory) throws {
    socket = directory.path + "/agent"
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
    process.arguments = ["-D", "-a", socket]
    process.environment = ["PATH": "/usr/bin:/bin"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(30)
    while access(socket, F_OK) != 0 {
      guard ContinuousClock.now < deadline, process.isRunning else {
        stop()
        throw HarnessError("ssh-agent did not make its socket \(socket)")
      }
      usleep(10_000)
    }
  }

  deinit { stop() }

  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// What `ssh-add -l` says of the agent's keys.
  func listedKeys() throws -> ProgramRun {
    try runProgram(
      "/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"])
  }
}

/// True when `path` is an executable file.
func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
