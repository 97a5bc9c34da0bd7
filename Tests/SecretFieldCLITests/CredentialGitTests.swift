import Glibc
import PTYSupport
import SecureMemory
import TestSupport
import Testing

/// `git-credential-secretfield` with real git (2.39) against a real HTTP
/// server that checks basic authentication (`git http-backend` behind a
/// Python server each test starts): git runs the helper, the test types into
/// its form on the pty, and the kernel keyring is looked at with `keyctl`.
///
/// Every key is named by its server's port, which no other test has while
/// the server runs, and removed after (`keyctl invalidate`).
@Suite(
  "secretfield credential with real git and a server that checks the password",
  .enabled(if: CredentialGitClient.isAvailable, "needs git, git-http-backend, python3, keyctl"))
struct CredentialGitTests {
  /// The key's name, written out as the oracle: what `keyctl` must find.
  static func keyName(_ server: CredentialHTTPServer, user: String, path: String? = nil) -> String {
    "secretfield-git;protocol=http;host=\(server.host)" + (path.map { ";path=\($0)" } ?? "")
      + ";username=\(user)"
  }

  /// A server for `client` with one repository, `a.git`, for alice with
  /// `password`, and the name her credential is cached under; the caller
  /// removes the keys (``removeKeys(of:users:paths:)``).
  static func aliceServer(
    for client: CredentialGitClient, password: String
  ) throws -> (server: CredentialHTTPServer, key: String) {
    let server = try CredentialHTTPServer(
      in: client.directory.path, accounts: ["a.git": ("alice", password)])
    return (server, keyName(server, user: "alice"))
  }

  /// Removes every key of `server`'s host that a test may have left.
  static func removeKeys(of server: CredentialHTTPServer, users: [String], paths: [String?] = [nil])
  {
    for user in users {
      for path in paths { KeyringOracle.remove(keyName(server, user: user, path: path)) }
    }
  }

  @Test(
    "the first clone asks in the form; once the server took it, it is cached, and a second clone does not ask"
  )
  func asksOnceThenCached() throws {
    let client = try CredentialGitClient()
    let (server, name) = try Self.aliceServer(for: client, password: "correct horse é")
    defer { Self.removeKeys(of: server, users: ["alice"]) }

    let first = try client.clone(server.baseURL + "/a.git")
    let form = try waitForCredentialForm(first)
    #expect(form.shows("git: \(server.baseURL)"), "\(form)")
    try answerCredentialForm(first, user: "alice", password: "correct horse é")
    try expectSuccess(first)
    #expect(!(try first.screen().contains("correct horse")))

    // Cached by store, after the server accepted it: the password is the key's payload.
    #expect(KeyringOracle.payload(name) == Array("correct horse é".utf8))
    #expect(KeyringOracle.permissions(name) == KernelKeyring.permissions)

    let second = try client.clone(server.baseURL + "/a.git")
    try expectSuccess(second)
    #expect(!(try second.screen().transcript.contains("Username:")), "the second clone asked")
    #expect(try server.requests().filter { $0 == "a.git ok" }.count >= 2)
  }

  @Test("a wrong password typed: the server refuses it and nothing is cached")
  func wrongPasswordIsNotCached() throws {
    let client = try CredentialGitClient()
    let (server, name) = try Self.aliceServer(for: client, password: "right")
    defer { Self.removeKeys(of: server, users: ["alice"]) }

    let clone = try client.clone(server.baseURL + "/a.git")
    try answerCredentialForm(clone, user: "alice", password: "wrong")
    let status = try clone.waitForExit()
    #expect(status != .exited(0), "the server took a wrong password")
    #expect(try clone.standardError().contains("Authentication failed"))
    #expect(try server.requests().contains("a.git refused"))
    #expect(KeyringOracle.serial(name) == nil, "a refused password was cached")
  }

  @Test(
    "the server refuses a cached credential: git calls erase, the key goes, and the next clone asks again"
  )
  func refusedCredentialIsErased() throws {
    let client = try CredentialGitClient()
    let (server, name) = try Self.aliceServer(for: client, password: "first")
    defer { Self.removeKeys(of: server, users: ["alice"]) }

    try client.clone(server.baseURL + "/a.git", answering: "alice", password: "first")
    #expect(KeyringOracle.payload(name) == Array("first".utf8))

    // The password changes on the server: the cached one is refused.
    try server.setAccounts(["a.git": ("alice", "second")])
    let refused = try client.clone(server.baseURL + "/a.git")
    #expect(try refused.waitForExit() != .exited(0))
    #expect(!(try refused.screen().transcript.contains("Username:")), "it asked, not the cache")
    #expect(try server.requests().contains("a.git refused"))
    #expect(KeyringOracle.serial(name) == nil, "git's erase left the refused credential")

    try client.clone(server.baseURL + "/a.git", answering: "alice", password: "second")
    #expect(KeyringOracle.payload(name) == Array("second".utf8))
  }

  @Test("after the timeout the key expires, and the next clone asks again")
  func asksAgainAfterTimeout() throws {
    let client = try CredentialGitClient()
    client.helperArguments = ["--timeout", "2"]
    let (server, name) = try Self.aliceServer(for: client, password: "pw")
    defer { Self.removeKeys(of: server, users: ["alice"]) }

    try client.clone(server.baseURL + "/a.git", answering: "alice", password: "pw")
    #expect(KeyringOracle.serial(name) != nil, "cached after the server took it")
    // The event: the kernel expired the key (polled with keyctl), not a sleep.
    #expect(KeyringOracle.waitUntilGone(name), "the key outlived its 2-second timeout")

    try client.clone(server.baseURL + "/a.git", answering: "alice", password: "pw")
  }

  @Test("credential.useHttpPath keeps two repositories on one host apart")
  func useHttpPathKeepsRepositoriesApart() throws {
    let client = try CredentialGitClient()
    client.useHttpPath = true
    let server = try CredentialHTTPServer(
      in: client.directory.path,
      accounts: ["a.git": ("alice", "for a"), "b.git": ("alice", "for b")])
    defer { Self.removeKeys(of: server, users: ["alice"], paths: ["a.git", "b.git"]) }

    for (repository, password) in [("a.git", "for a"), ("b.git", "for b")] {
      let clone = try client.clone(server.baseURL + "/" + repository)
      let form = try waitForCredentialForm(clone)
      #expect(form.shows("git: \(server.baseURL)/\(repository)"), "\(form)")
      try answerCredentialForm(clone, user: "alice", password: password)
      try expectSuccess(clone)
      let name = Self.keyName(server, user: "alice", path: repository)
      #expect(KeyringOracle.payload(name) == Array(password.utf8), "\(repository)")
    }
    #expect(KeyringOracle.serial(Self.keyName(server, user: "alice")) == nil)
    // Each repository now gets its own password from the cache, without asking.
    for repository in ["a.git", "b.git"] {
      let clone = try client.clone(server.baseURL + "/" + repository)
      try expectSuccess(clone, repository)
      #expect(!(try clone.screen().transcript.contains("Username:")))
    }
    #expect(!(try server.requests().contains { $0.hasSuffix("refused") }))
  }

  @Test("Esc in the form: git is told to quit, clones nothing, and nothing is cached")
  func escapeTellsGitToQuit() throws {
    let client = try CredentialGitClient()
    let (server, _) = try Self.aliceServer(for: client, password: "pw")
    defer { Self.removeKeys(of: server, users: ["alice"]) }

    let clone = try client.clone(server.baseURL + "/a.git")
    try waitForCredentialForm(clone)
    try clone.type("alice")
    try clone.type(Key.escape)
    #expect(try clone.waitForExit() != .exited(0))
    #expect(try clone.standardError().contains("told us to quit"))
    #expect(try server.requests().allSatisfy { !$0.hasSuffix(" ok") })
    #expect(KeyringOracle.serial(Self.keyName(server, user: "alice")) == nil)
    #expect(try clone.attributes() == clone.initialAttributes)
  }

  @Test("the user name git sends is filled in: only the password is typed")
  func userNameFromURL() throws {
    let client = try CredentialGitClient()
    let server = try CredentialHTTPServer(
      in: client.directory.path, accounts: ["a.git": ("bob", "pw")])
    defer { Self.removeKeys(of: server, users: ["bob"]) }

    let url = "http://bob@\(server.host)/a.git"
    let clone = try client.clone(url)
    let form = try waitForCredentialForm(clone)
    #expect(form.lines.contains("Username: bob"), "\(form)")
    try answerCredentialForm(clone, user: nil, password: "pw")
    try expectSuccess(clone)
    #expect(KeyringOracle.payload(Self.keyName(server, user: "bob")) == Array("pw".utf8))
  }
}
