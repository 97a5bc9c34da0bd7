import Foundation
import Glibc

/// A git server over HTTP that asks for basic authentication and checks the
/// password: `git http-backend` behind a small Python server the test
/// starts on a free port of 127.0.0.1, serving bare repositories it made.
///
/// Each repository has its account (user name and password), read from a
/// file on every request, so a test can change a password between clones.
/// Every request is logged as `REPOSITORY ok|refused|none` (no credential).
public final class CredentialHTTPServer {
  /// `http://127.0.0.1:PORT`.
  public let baseURL: String
  /// `127.0.0.1:PORT`, the host git sends its helper.
  public let host: String
  private let directory: String
  private let process: TestProcess

  /// Starts a server under `directory` with a repository for each entry of
  /// `accounts` (`"a.git": ("alice", "pw")`), each holding one commit.
  public init(in directory: String, accounts: [String: (user: String, password: String)]) throws {
    self.directory = directory
    let root = directory + "/repositories"
    let plain = ["PATH": "/usr/bin:/bin", "HOME": directory, "GIT_CONFIG_NOSYSTEM": "1"]
    let work = directory + "/work"
    for step in [
      ["init", "-q", work],
      [
        "-C", work, "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit",
        "-q", "--allow-empty", "-m", "first",
      ],
    ] {
      let run = try runProgram(["/usr/bin/git"] + step, environment: .exactly(plain))
      guard run.status == 0 else { throw HarnessError("git \(step): \(run.error)") }
    }
    for name in accounts.keys {
      let run = try runProgram(
        ["/usr/bin/git", "clone", "-q", "--bare", work, root + "/" + name],
        environment: .exactly(plain))
      guard run.status == 0 else { throw HarnessError("git clone --bare: \(run.error)") }
    }
    try "".write(toFile: directory + "/requests.log", atomically: false, encoding: .utf8)
    try Self.writeAccounts(accounts, to: directory + "/accounts.json")

    process = try TestProcess(
      [
        "/usr/bin/python3", Self.script, root, directory + "/accounts.json",
        directory + "/requests.log",
      ],
      environment: .exactly([
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
      ]),
      standardError: .null)
    // The server prints its port once it listens: the event to wait for.
    guard process.waitForOutput(containing: "\n") else {
      throw HarnessError("the test's HTTP server exited before it listened")
    }
    let line = process.outputSoFar().prefix { $0 != 0x0A }
    let port = String(decoding: line, as: UTF8.self)
    host = "127.0.0.1:\(port)"
    baseURL = "http://" + host
  }

  /// The server's program, kept with the install test's checks, which run it too.
  public static let script =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path + "/Packaging/tests/git-http-server.py"

  /// Changes the accounts: the next request is checked against these.
  public func setAccounts(_ accounts: [String: (user: String, password: String)]) throws {
    let path = directory + "/accounts.json"
    try Self.writeAccounts(accounts, to: path + ".new")
    guard rename(path + ".new", path) == 0 else { throw HarnessError("rename accounts.json") }
  }

  /// The requests the server answered so far, one `REPOSITORY RESULT` each.
  public func requests() throws -> [String] {
    let text = try String(contentsOfFile: directory + "/requests.log", encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  private static func writeAccounts(
    _ accounts: [String: (user: String, password: String)], to path: String
  ) throws {
    let object = accounts.mapValues { [$0.user, $0.password] }
    let data = try JSONSerialization.data(withJSONObject: object)
    try data.write(to: URL(fileURLWithPath: path))
  }
}
