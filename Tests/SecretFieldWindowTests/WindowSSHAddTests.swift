import Foundation
import Glibc
import TestSupport
import Testing

/// A private ssh-agent on a socket in a temporary directory of its own
/// (`/tmp`, short: a socket path must stay under 107 bytes), started in a
/// session of its own (no terminal for the askpass it runs), and an ed25519
/// key made there with a passphrase; the agent is stopped and the directory
/// removed at the end.
final class SSHAgentHome {
  let path: String
  /// The private key, encrypted with the passphrase; `.pub` beside it.
  let key: String
  let socket: String
  private let agent: TestProcess

  /// Makes the key and starts `ssh-agent -D`; with `confirmingOn`, the agent
  /// asks through the askpass on that display (it runs the askpass itself to
  /// confirm each use of a key added with `ssh-add -c`).
  init(passphrase: String, confirmingOn display: TestDisplay? = nil) throws {
    path = try makeTemporaryDirectory(prefix: "sfs.")
    key = path + "/id_ed25519"
    socket = path + "/agent"
    let keygen = try runProgram([
      "ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "secretfield-window-test",
      "-f", key,
    ])
    guard keygen.status == 0 else {
      try? FileManager.default.removeItem(atPath: path)
      throw WindowTestError(description: "ssh-keygen: \(keygen.error)")
    }
    agent = try TestProcess(
      // Its output to /dev/null: an askpass it starts inherits that, not the
      // test's pipe, so ending the agent never waits for a dialog left open.
      ["sh", "-c", "exec ssh-agent -D -a \"$1\" >/dev/null 2>&1", "sh", socket],
      environment: .changed(display.map(Self.askpassEnvironment(display:)) ?? [:]), newSession: true
    )
    let deadline = ContinuousClock.now + .seconds(30)
    while !FileManager.default.fileExists(atPath: socket) {
      guard agent.isRunning, ContinuousClock.now < deadline else {
        throw WindowTestError(description: "ssh-agent did not make its socket")
      }
      usleep(20_000)
    }
  }

  deinit {
    agent.signal(SIGTERM)
    _ = try? agent.finish(within: .seconds(10))
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The key's fingerprint, `SHA256:...`, as `ssh-add -l` lists it.
  func fingerprint() throws -> String {
    let run = try runProgram(["ssh-keygen", "-l", "-f", key + ".pub"])
    let fields = run.output.split(separator: " ")
    guard run.status == 0, fields.count > 1 else {
      throw WindowTestError(description: "ssh-keygen -l: \(run.error)")
    }
    return String(fields[1])
  }

  /// `ssh-add -l` against this agent.
  func identities() throws -> ProgramRun {
    try runProgram(["ssh-add", "-l"], environment: ["SSH_AUTH_SOCK": socket])
  }

  /// What ssh-add needs to ask through `secretfield-askpass` on
  /// `display`, never on a terminal.
  static func askpassEnvironment(display: TestDisplay) -> [String: String?] {
    display.environment.merging([
      "SSH_ASKPASS": WindowTestEnvironment.askpassProgram, "SSH_ASKPASS_REQUIRE": "force",
      "SSH_ASKPASS_PROMPT": nil, "SECRETFIELD_ASKPASS_FRONTEND": nil,
    ]) { $1 }
  }
}

/// ssh-add run as a desktop runs it at login: no terminal (a session of its
/// own, standard input from /dev/null), `SSH_ASKPASS` set to the built
/// `secretfield-askpass`, which opens `secretfield-window askpass` on the
/// Xvfb display; the key goes to a private ssh-agent.
@Suite(
  "ssh-add with no terminal asks through secretfield-askpass's window",
  .enabled(
    if: WindowTestEnvironment.isAvailable
      && ["ssh-agent", "ssh-add", "ssh-keygen"].allSatisfy {
        WindowTestEnvironment.path(of: $0) != nil
      },
    "needs the window test programs and OpenSSH's ssh-agent, ssh-add and ssh-keygen"))
struct WindowSSHAddTests {
  static let passphrase = "correct horse 42"

  /// `ssh-add ARGUMENTS` in a session of its own, asking on `display`.
  func startSSHAdd(
    _ arguments: [String], home: SSHAgentHome, display: TestDisplay
  ) throws -> TestProcess {
    try startWindow(
      arguments, program: WindowTestEnvironment.path(of: "ssh-add") ?? "/usr/bin/ssh-add",
      display: display,
      environment: SSHAgentHome.askpassEnvironment(display: display).merging([
        "SSH_AUTH_SOCK": home.socket
      ]) { $1 })
  }

  @Test(
    "the passphrase typed in the window adds the key: ssh-add exits 0, the agent lists it",
    arguments: DisplayKind.available)
  func passphraseAddsTheKey(_ kind: DisplayKind) throws {
    let home = try SSHAgentHome(passphrase: Self.passphrase)
    let display = try TestDisplay(kind)
    let sshAdd = try startSSHAdd([home.key], home: home, display: display)
    try display.focusNewWindow(named: WindowAskpassTests.title, openedBy: sshAdd)
    try display.type(Self.passphrase)
    try display.key("Return")
    let run = try sshAdd.finish()
    #expect(run.status == 0, "\(run.error)")
    let listed = try home.identities()
    #expect(listed.status == 0, "\(listed.output)")
    #expect(listed.output.contains(try home.fingerprint()), "\(listed.output)")
  }

  @Test("control: a wrong passphrase adds nothing; ssh-add asks again, Esc there ends it")
  func wrongPassphraseAddsNothing() throws {
    let home = try SSHAgentHome(passphrase: Self.passphrase)
    let display = try TestDisplay()
    let sshAdd = try startSSHAdd([home.key], home: home, display: display)
    let first = try display.focusNewWindow(named: WindowAskpassTests.title, openedBy: sshAdd)
    try display.type("correct horse 43")
    try display.key("Return")
    try display.focusNewWindow(named: WindowAskpassTests.title, after: [first], openedBy: sshAdd)
    try display.key("Escape")
    let run = try sshAdd.finish()
    #expect(run.status != 0, "\(run.error)")
    let listed = try home.identities()
    #expect(listed.status == 1, "\(listed.output)")
    #expect(!listed.output.contains(try home.fingerprint()), "\(listed.output)")
  }

  @Test("ssh-add -c: the agent asks in the window before each use; Enter signs, Esc refuses")
  func confirmationBeforeUse() throws {
    let display = try TestDisplay()
    let home = try SSHAgentHome(passphrase: Self.passphrase, confirmingOn: display)
    let sshAdd = try startSSHAdd(["-c", home.key], home: home, display: display)
    var seen = [try display.focusNewWindow(named: WindowAskpassTests.title, openedBy: sshAdd)]
    try display.type(Self.passphrase)
    try display.key("Return")
    let added = try sshAdd.finish()
    #expect(added.status == 0, "\(added.error)")
    let data = home.path + "/data"
    try "signed with the agent's key\n".write(toFile: data, atomically: false, encoding: .utf8)
    for (key, signs) in [("Return", true), ("Escape", false)] {
      unlink(data + ".sig")
      let sign = try TestProcess(
        ["ssh-keygen", "-Y", "sign", "-f", home.key + ".pub", "-n", "file", data],
        environment: ["SSH_AUTH_SOCK": home.socket, "SSH_ASKPASS": nil], newSession: true)
      seen.append(
        try display.focusNewWindow(named: WindowAskpassTests.title, after: seen, openedBy: sign))
      try display.key(key)
      let run = try sign.finish()
      #expect((run.status == 0) == signs, "\(key): \(run.status) \(run.error)")
      #expect(FileManager.default.fileExists(atPath: data + ".sig") == signs, "\(key)")
    }
  }
}
