import Glibc
import TestSupport

/// A temporary GnuPG home under `/tmp` with a short path (the agent's socket
/// path must stay under 107 bytes), a `gpg-agent.conf` naming the pinentry
/// under test, and the agent it starts, killed and removed at the end.
final class GnuPGHome {
  let path: String

  /// Makes `/tmp/sfg.XXXXXX` (mode 700) with `pinentry-program` set to
  /// `pinentryProgram` and `agentOptions` added to `gpg-agent.conf`.
  init(pinentryProgram: String, agentOptions: [String] = []) throws {
    path = try makeTemporaryDirectory(prefix: "sfg.")
    let configuration =
      (["pinentry-program \(pinentryProgram)"] + agentOptions).joined(separator: "\n") + "\n"
    try writeFile("gpg-agent.conf", Array(configuration.utf8))
  }

  /// Writes `bytes` to the file `name` in the home.
  func writeFile(_ name: String, _ bytes: [UInt8]) throws {
    let file = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard file >= 0 else { throw HarnessError(what: "open \(name)", errno: errno) }
    defer { close(file) }
    guard write(file, bytes, bytes.count) == bytes.count else {
      throw HarnessError(what: "write \(name)", errno: errno)
    }
  }

  /// The text of the file `name` in the home, empty when there is none.
  func readFile(_ name: String) -> String {
    let file = open(path + "/" + name, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return "" }
    defer { close(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      bytes += chunk[0..<got]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The environment GnuPG's tools run with: this home and nothing of ours,
  /// plus `extra` (`GPG_TTY=...`, `TERM=...`).
  func environment(_ extra: [String] = []) -> [String] {
    ["GNUPGHOME=\(path)", "HOME=\(path)", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"] + extra
  }

  /// Runs a GnuPG tool to its end and returns its exit code and stdout.
  @discardableResult
  func run(
    _ program: String, _ arguments: [String], environment extra: [String] = [], input: [UInt8] = []
  ) throws -> (exitCode: Int32?, output: [UInt8]) {
    let standardInput = try Pipe()
    let standardOutput = try Pipe()
    let child = try TestProcess(
      [program] + arguments, environment: .entries(environment(extra)),
      standardInput: .descriptor(standardInput.readEnd),
      standardOutput: .descriptor(standardOutput.writeEnd), standardError: .null)
    standardInput.closeReadEnd()
    standardOutput.closeWriteEnd()
    standardInput.send(input)
    standardInput.closeWriteEnd()
    let output = standardOutput.receiveAll()
    return (child.exitCode, output)
  }

  /// Starts a tool without waiting for it: for `gpg-connect-agent` while the
  /// test types into the pinentry's terminal. Read its output from the pipe.
  func start(
    _ program: String, _ arguments: [String], environment extra: [String] = []
  ) throws -> (process: TestProcess, output: Pipe) {
    let standardOutput = try Pipe()
    let child = try TestProcess(
      [program] + arguments, environment: .entries(environment(extra)),
      standardInput: .inherit, standardOutput: .descriptor(standardOutput.writeEnd),
      standardError: .null)
    standardOutput.closeWriteEnd()
    return (child, standardOutput)
  }

  /// Starts the agent now (`gpgconf --launch gpg-agent`) rather than on first use.
  func launchAgent() throws {
    try run("/usr/bin/gpgconf", ["--launch", "gpg-agent"])
  }

  /// Stops the agent, if one runs for this home.
  func killAgent() {
    _ = try? run("/usr/bin/gpgconf", ["--kill", "gpg-agent"])
  }

  deinit {
    killAgent()
    _ = try? runProgram(["/bin/rm", "-rf", path], environment: .exactly([:]))
  }
}
