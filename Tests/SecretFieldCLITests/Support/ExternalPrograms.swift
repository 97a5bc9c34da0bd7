import Foundation
import Glibc
import PTYSupport
import TestSupport

/// `ssh-keygen ARGUMENTS` started and left to run while the test answers
/// what it caused (an agent's confirmation), then waited for.
final class SigningProcess {
  private let process: TestProcess

  init(arguments: [String], environment: [String: String]) throws {
    process = try TestProcess(
      ["/usr/bin/ssh-keygen"] + arguments, environment: .exactly(environment),
      standardOutput: .null)
  }

  /// Waits for the end; its status and standard error.
  func finish() throws -> ProgramRun { try process.finish() }
}

/// An `ssh-agent` the test started in the foreground (`-D`) on a socket in a
/// temporary directory; dropping it kills the agent and waits for it.
final class SSHAgent {
  let socket: String
  private let process: TestProcess

  init(in directory: TemporaryDirectory) throws {
    socket = directory.path + "/agent"
    process = try TestProcess(
      ["/usr/bin/ssh-agent", "-D", "-a", socket], environment: .exactly(["PATH": "/usr/bin:/bin"]),
      standardOutput: .null, standardError: .null)
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
    process.signal(SIGKILL)
    _ = try? process.wait()
  }

  /// What `ssh-add -l` says of the agent's keys.
  func listedKeys() throws -> ProgramRun {
    try runProgram(
      ["/usr/bin/ssh-add", "-l"],
      environment: .exactly(["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"]))
  }
}

/// True when `path` is an executable file.
func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }
