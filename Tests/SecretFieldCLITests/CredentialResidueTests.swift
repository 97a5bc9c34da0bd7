import Glibc
import PTYSupport
import SecretFieldCLI
import SecureMemory
import TestSupport
import Testing
import ToolSupport

/// Where the password of a git credential is, and is not, once our helper
/// and git have it: no helper process outlives git, the cached key is the
/// user's alone, and the helper's memory, read from outside as root, holds
/// no readable copy while it asks, after it answered, or after it answered
/// from the cache. The control: the same scan finds the password in the
/// daemon of `git-credential-cache`, which keeps it in its heap.
@Suite(
  "Residue: git credentials in our helper, the kernel keyring and git-credential-cache",
  .enabled(if: CredentialGitClient.isAvailable, "needs git, git-http-backend, python3, keyctl"))
struct CredentialResidueTests {
  @Test("no process of the helper is left once git has finished; control: one runs while it asks")
  func noHelperLeft() throws {
    let client = try CredentialGitClient()
    let (server, _) = try CredentialGitTests.aliceServer(for: client, password: "pw")
    defer { CredentialGitTests.removeKeys(of: server, users: ["alice"]) }
    let clone = try client.clone(server.baseURL + "/a.git")
    try waitForCredentialForm(clone)
    #expect(client.helperProcesses().count == 1, "the scan finds the helper while it asks")
    try answerCredentialForm(clone, user: "alice", password: "pw")
    try expectSuccess(clone)
    // git waited for each helper it ran (get, then store) before exiting.
    #expect(client.helperProcesses().isEmpty, "\(client.helperProcesses())")
  }

  @Test(
    "another user cannot read the cached key (keyctl as nobody is refused); control: with read for others, it can",
    .enabled(if: getuid() == 0, "needs root to run keyctl as nobody"))
  func otherUserCannotRead() throws {
    let client = try CredentialGitClient()
    let (server, name) = try CredentialGitTests.aliceServer(for: client, password: "not for nobody")
    defer { CredentialGitTests.removeKeys(of: server, users: ["alice"]) }
    try client.clone(server.baseURL + "/a.git", answering: "alice", password: "not for nobody")

    try KeyringOracle.expectOtherUserCannotRead(name, payload: Array("not for nobody".utf8))
  }

  @Test(
    "control: a root scan of git-credential-cache's daemon finds the password it keeps",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
  func credentialCacheDaemonHoldsThePassword() throws {
    let directory = try TemporaryDirectory()
    let marker = Marker(count: 32)
    let socket = directory.path + "/cache"
    let git = [
      "/usr/bin/env", "-i", "HOME=\(directory.path)", "PATH=/usr/bin:/bin",
      "GIT_CONFIG_NOSYSTEM=1", "/usr/bin/git", "credential-cache", "--socket", socket,
    ]
    defer { _ = try? runProgram(git + ["exit"]) }
    let stored = try runProgram(
      git + ["--timeout", "120", "store"],
      input: Array("protocol=https\nhost=cache.invalid\nusername=alice\npassword=".utf8)
        + marker.plainBytesForControl() + Array("\n\n".utf8))
    try #require(stored.status == 0, "\(stored.error)")
    let daemons = processIDs().filter { pid in
      (try? readText("/proc/\(pid)/cmdline")).map {
        $0.contains("credential-cache--daemon") && $0.contains(socket)
      } ?? false
    }
    let daemon = try #require(daemons.first, "the daemon git-credential-cache started")
    let report = try ResidueScanner(processID: daemon).scan(for: marker)
    #expect(report.copies >= 1, "\(report)")
  }

  @Test(
    "the helper's get, asking with the password typed: no readable copy in secret memory (the control in sodium memory gives it away), none once it answered",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"),
    arguments: MemoryBacking.all)
  func noCopyInHelperWhileAsking(_ backing: MemoryBacking) throws {
    let marker = Marker(count: 32)
    let client = try CredentialGitClient()
    let host = "residue-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).invalid"
    client.environment = backing.environment.merging([TestHook.stopBeforeExitVariable: "1"]) {
      $1
    }
    let fill = try client.fill("protocol=https\nhost=\(host)\n\n")
    try waitForCredentialForm(fill)
    try fill.typeLine("alice")
    try fill.type(bytes: marker.plainBytesForControl())
    try fill.waitForMasks(marker.count)
    let helper = try #require(client.helperProcesses().first)

    let asking = try ResidueScanner(processID: helper).scan(for: marker)
    if backing.isSecretMemory {
      #expect(asking.copies == 0, "\(asking)")
      #expect(!asking.refused.isEmpty, "secret-memory pages refuse the scan: \(asking)")
    } else {
      #expect(asking.copies >= 1, "\(asking)")
    }
    #expect(asking.bytesRead > 0 && !asking.refused.contains { $0 == "[heap]" || $0 == "[stack]" })

    // Enter: the helper answers git and stops before it exits.
    try fill.type(Key.enter)
    #expect(waitFor { processState(helper) == "T" }, "the helper stopped after answering")
    let answered = try ResidueScanner(processID: helper).scan(for: marker)
    #expect(answered.copies == 0, "\(answered)")
    #expect(answered.bytesRead > 0, "\(answered)")
    kill(helper, SIGCONT)
    try expectSuccess(fill)
    // The control that the password went through the helper: git printed it.
    let output = try fill.capturedOutput(stream: 1)
    #expect(contains(output, marker), "git got the typed password")
  }

  @Test(
    "the helper's get from the cache, and its store: no copy left in the helper, stopped before it exits",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
  func noCopyInHelperFromCache() throws {
    let marker = Marker(count: 32)
    let client = try CredentialGitClient()
    let host = "residue-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).invalid"
    let name = "secretfield-git;protocol=https;host=\(host);username=alice"
    defer { KeyringOracle.remove(name) }

    // store, run as git runs it, stopped before it exits.
    var options = TerminalSession.Options()
    options.environment = [TestHook.stopBeforeExitVariable: "1"]
    options.standardInput = .bytes(
      Array("protocol=https\nhost=\(host)\nusername=alice\npassword=".utf8)
        + marker.plainBytesForControl() + Array("\n\n".utf8))
    options.standardOutput = .captured
    options.standardError = .captured
    let store = try TerminalSession(
      executable: client.helper, arguments: ["--timeout", "60", "store"], options: options)
    #expect(try store.waitForStatus() == .stopped(SIGSTOP))
    let stored = try ResidueScanner(processID: store.processID).scan(for: marker)
    #expect(stored.copies == 0, "\(stored)")
    #expect(stored.bytesRead > 0, "\(stored)")
    try store.send(signal: SIGCONT)
    #expect(try store.waitForExit() == .exited(0))
    let cached = KeyringOracle.payload(name) ?? []
    #expect(cached.withUnsafeBytes { marker.isEqual(to: $0) }, "the key holds the password")

    client.environment = [TestHook.stopBeforeExitVariable: "1"]
    let fill = try client.fill("protocol=https\nhost=\(host)\n\n")
    var helper: Int32?
    #expect(
      waitFor {
        helper = client.helperProcesses().first { processState($0) == "T" }
        return helper != nil
      }, "the helper stopped after answering from the cache")
    let stopped = try #require(helper)
    let answered = try ResidueScanner(processID: stopped).scan(for: marker)
    #expect(answered.copies == 0, "\(answered)")
    #expect(answered.bytesRead > 0, "\(answered)")
    kill(stopped, SIGCONT)
    try expectSuccess(fill)
    #expect(!(try fill.screen().transcript.contains("Username:")), "it asked")
    #expect(contains(try fill.capturedOutput(stream: 1), marker), "git got the cached password")
  }

  private func contains(_ bytes: [UInt8], _ marker: Marker) -> Bool {
    guard bytes.count >= marker.count else { return false }
    return bytes.withUnsafeBytes { raw in
      (0...(raw.count - marker.count)).contains {
        marker.isEqual(to: UnsafeRawBufferPointer(rebasing: raw[$0..<$0 + marker.count]))
      }
    }
  }
}
