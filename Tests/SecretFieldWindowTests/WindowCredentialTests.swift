import Foundation
import Glibc
import TestSupport
import Testing

/// A git server over HTTP that checks basic authentication
/// (`Packaging/tests/git-http-server.py`: `git http-backend` behind Python's
/// server, on a free port of 127.0.0.1), serving one bare repository, with a
/// git client whose only credential helper is the built `secretfield` under
/// the name git runs (`git-credential-secretfield`), a home of its own and
/// no system configuration; all under a temporary directory, removed after
/// with the keys the helper cached.
final class WindowGitSetup {
  let directory: String
  let baseURL: String
  let host: String
  private let server: CredentialHTTPServer

  /// Starts the server with `a.git`, whose account is `user` and `password`.
  init(user: String, password: String) throws {
    directory = try makeTemporaryDirectory(prefix: "sfg.")
    server = try CredentialHTTPServer(in: directory, accounts: ["a.git": (user, password)])
    host = server.host
    baseURL = server.baseURL
    guard symlink(WindowTestEnvironment.productsDirectory + "/secretfield", helper) == 0 else {
      throw WindowTestError(description: "cannot link the helper")
    }
  }

  deinit {
    for user in ["alice", "bob"] { KeyringOracle.remove(cachedKeyName(user: user)) }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The helper git runs: a link named as git names it, to the built tool.
  var helper: String { directory + "/git-credential-secretfield" }

  /// The name of the key the helper caches `user`'s credential under.
  func cachedKeyName(user: String) -> String {
    "secretfield-git;protocol=http;host=\(host);username=\(user)"
  }

  /// The requests the server answered, one `REPOSITORY RESULT` each.
  func requests() throws -> [String] { try server.requests() }

  /// `git clone URL` into a new directory, started on `display` with no
  /// terminal (a session of its own), as an editor or a desktop tool runs
  /// git: the helper asks in the window.
  func clone(_ url: String, into name: String, display: TestDisplay) throws -> TestProcess {
    try display.start(
      [
        "-c", "credential.helper=", "-c", "credential.helper=\(helper)", "clone", "-q", url,
        directory + "/" + name,
      ], program: "/usr/bin/git",
      environment: [
        "HOME": directory, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": nil, "SSH_ASKPASS": nil,
      ])
  }
}

/// `git clone` over HTTPS-style basic authentication with
/// `git-credential-secretfield` as git's helper and no terminal: the helper
/// becomes `secretfield-window credential get`, which asks in a window with
/// a user-name field above the password; the server takes the credential,
/// and git has the helper cache it.
@Suite(
  "git credential helper: with no terminal it asks in the window, user name and password",
  .enabled(
    if: WindowTestEnvironment.isAvailable && KeyringOracle.isAvailable
      && FileManager.default.isExecutableFile(atPath: "/usr/lib/git-core/git-http-backend"),
    "needs the window test programs, git's http-backend, python3 and keyctl"))
struct WindowCredentialTests {
  static let title = "secretfield credential"

  @Test(
    "the first clone asks in the window, both fields typed; the server takes it; it is cached",
    arguments: DisplayKind.available)
  func cloneAsksInTheWindow(_ kind: DisplayKind) throws {
    let git = try WindowGitSetup(user: "alice", password: "correct horse é")
    let display = try TestDisplay(kind)
    let clone = try git.clone(git.baseURL + "/a.git", into: "one", display: display)
    try display.focusWindow(named: Self.title, openedBy: clone)
    try display.waitForFrame("the user-name field") { $0.focus == "username" }
    try display.type("alice")
    try display.key("Return")
    try display.waitForFrame("the password field") { $0.focus == "password" }
    try display.type("correct horse é")
    try display.waitForFrame("the password") { $0.cells == 15 }
    _ = try display.screenshot(artifact: "window-credential")
    try display.key("Return")
    let run = try clone.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(try git.requests().contains("a.git ok"))
    #expect(
      KeyringOracle.payload(git.cachedKeyName(user: "alice")) == Array("correct horse é".utf8),
      "git had it stored once the server took it")

    // The second clone is answered from the cache: no window, no frame.
    let frames = display.frames.all().count
    let second = try git.clone(git.baseURL + "/a.git", into: "two", display: display)
    let again = try second.finish()
    #expect(again.status == 0, "\(again.error)")
    #expect(display.frames.all().count == frames, "it did not ask")
  }

  @Test("the user name git sent is filled in: only the password is typed")
  func userNameFromTheURL() throws {
    let git = try WindowGitSetup(user: "bob", password: "hunter2")
    let display = try TestDisplay()
    let url = "http://bob@\(git.host)/a.git"
    let clone = try git.clone(url, into: "one", display: display)
    try display.focusWindow(named: Self.title, openedBy: clone)
    try display.waitForFrame("the password field first") { $0.focus == "password" }
    try display.type("hunter2")
    try display.key("Return")
    let run = try clone.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(try git.requests().contains("a.git ok"))
  }

  @Test("Esc in the window declines: git stops, nothing is cached")
  func escapeDeclines() throws {
    let git = try WindowGitSetup(user: "alice", password: "hunter2")
    let display = try TestDisplay()
    let clone = try git.clone(git.baseURL + "/a.git", into: "one", display: display)
    try display.focusWindow(named: Self.title, openedBy: clone)
    try display.type("alice")
    try display.key("Escape")
    let run = try clone.finish()
    #expect(run.status != 0)
    #expect(KeyringOracle.serial(git.cachedKeyName(user: "alice")) == nil)
  }

  @Test("control: SECRETFIELD_CREDENTIAL_FRONTEND=terminal keeps the terminal, which is not there")
  func terminalForced() throws {
    let git = try WindowGitSetup(user: "alice", password: "hunter2")
    let display = try TestDisplay()
    let helper = try display.start(
      ["get"], program: git.helper,
      environment: ["SECRETFIELD_CREDENTIAL_FRONTEND": "terminal"],
      input: "protocol=http\nhost=\(git.host)\n\n")
    try helper.finish(expectingStatus: 3, output: "")
    #expect(display.frames.all().isEmpty, "no window")
  }

  @Test("an unknown SECRETFIELD_CREDENTIAL_FRONTEND is refused with a message naming it")
  func unknownFrontEndRefused() throws {
    let git = try WindowGitSetup(user: "alice", password: "hunter2")
    let display = try TestDisplay()
    let helper = try display.start(
      ["get"], program: git.helper, environment: ["SECRETFIELD_CREDENTIAL_FRONTEND": "gui"],
      input: "protocol=http\nhost=\(git.host)\n\n")
    let run = try helper.finish(expectingStatus: 2, output: "")
    #expect(run.error.contains("SECRETFIELD_CREDENTIAL_FRONTEND=gui"), "\(run.error)")
    #expect(display.frames.all().isEmpty, "no window")
  }
}
