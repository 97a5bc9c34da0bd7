import Glibc
import PTYSupport
import TestSupport
import Testing

/// The real callers of the askpass, run as a user runs them from a shell: the
/// caller is the program in the pty (so the askpass it starts has the pty as
/// its terminal), and the test types into our prompt.
@Suite("secretfield-askpass with its real callers: ssh-add and git")
struct AskpassClientTests {
  static let hasOpenSSH =
    isExecutable("/usr/bin/ssh-agent") && isExecutable("/usr/bin/ssh-add")
    && isExecutable("/usr/bin/ssh-keygen")

  @Test(
    "ssh-add adds a passphrase-protected key with the passphrase typed into our prompt; a wrong one does not",
    .enabled(if: hasOpenSSH, "needs openssh-client"))
  func sshAdd() throws {
    let directory = try TemporaryDirectory()
    let key = directory.path + "/key"
    let passphrase = "correct horse é"
    let made = try runProgram(
      ["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "sf-test", "-f", key],
      environment: .exactly(["PATH": "/usr/bin:/bin"]))
    try #require(made.status == 0, "\(made.error)")
    let fingerprint = try runProgram(
      ["/usr/bin/ssh-keygen", "-lf", key + ".pub"], environment: .exactly(["PATH": "/usr/bin:/bin"])
    ).output.split(separator: " ")[1]
    let agent = try SSHAgent(in: directory)
    defer { agent.stop() }
    var options = TerminalSession.Options()
    options.environment = [
      "SSH_AUTH_SOCK": agent.socket, "SSH_ASKPASS": secretfieldAskpass,
      "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0", "HOME": directory.path,
      "PATH": "/usr/bin:/bin",
    ]
    options.standardOutput = .captured
    options.standardError = .captured

    // A wrong passphrase: ssh-add asks again; cancelling there adds nothing.
    let wrong = try TerminalSession(
      executable: "/usr/bin/ssh-add", arguments: [key], options: options)
    let asked = try wrong.waitForText("Enter passphrase for \(key):")
    #expect(asked.shows("Tab show · Enter OK · Esc cancel"), "our askpass asks: \(asked)")
    try wrong.type("wrong horse\r")
    try wrong.waitForText("Bad passphrase, try again for \(key):")
    try wrong.type(Key.escape)
    #expect(try wrong.waitForExit() == .exited(1))
    let none = try agent.listedKeys()
    #expect(!none.output.contains(fingerprint), "\(none.output)")
    #expect(none.output.contains("no identities"), "\(none.output)")

    // The right one: added, and listed.
    let right = try TerminalSession(
      executable: "/usr/bin/ssh-add", arguments: [key], options: options)
    try right.waitForText("Enter passphrase for \(key):")
    try right.type(passphrase)
    try right.type(Key.enter)
    #expect(try right.waitForExit() == .exited(0))
    #expect(try right.standardError().contains("Identity added"))
    let listed = try agent.listedKeys()
    #expect(listed.status == 0)
    #expect(listed.output.contains(fingerprint), "\(listed.output)")
    let screen = try right.screen()
    #expect(!screen.contains("correct horse"), "\(screen)")
    #expect(try right.attributes() == right.initialAttributes)
  }

  @Test(
    "ssh-agent asks our askpass to confirm each use of a key added with ssh-add -c: y signs, n refuses",
    .enabled(if: hasOpenSSH, "needs openssh-client"))
  func sshAgentConfirm() throws {
    let directory = try TemporaryDirectory()
    let key = directory.path + "/key"
    let plain = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
    try #require(
      try runProgram(
        ["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sf-test", "-f", key],
        environment: .exactly(plain)
      ).status == 0)
    let message = directory.path + "/message"
    try "hello\n".write(toFile: message)
    // The agent is the program in the pty, in the foreground (-D): the askpass
    // it starts for a confirmation has the pty as its terminal.
    let socket = directory.path + "/agent"
    var options = TerminalSession.Options()
    options.environment = [
      "SSH_ASKPASS": secretfieldAskpass, "DISPLAY": ":0", "HOME": directory.path,
      "PATH": "/usr/bin:/bin",
    ]
    let agent = try TerminalSession(
      executable: "/usr/bin/ssh-agent", arguments: ["-D", "-a", socket], options: options)
    let client = plain.merging(["SSH_AUTH_SOCK": socket]) { $1 }
    // The socket exists from bind(2) on, but connecting succeeds only after
    // listen(2): wait until `ssh-add -l` reaches the agent (2: it could not).
    var waited = 0
    while waited < 3000 {
      if access(socket, F_OK) == 0,
        try runProgram(["/usr/bin/ssh-add", "-l"], environment: .exactly(client)).status != 2
      {
        break
      }
      usleep(10_000)
      waited += 1
    }
    let added = try runProgram(["/usr/bin/ssh-add", "-c", key], environment: .exactly(client))
    try #require(added.status == 0, "\(added.error)")

    for (round, (answer, signs)) in [("n", false), ("y", true)].enumerated() {
      unlink(message + ".sig")
      let signing = try SigningProcess(
        arguments: ["-Y", "sign", "-f", key + ".pub", "-n", "file", message], environment: client)
      let asked = try agent.waitForScreen("the confirmation") { screen in
        screen.lines.filter { $0.hasSuffix("[y/n]") }.count == 1
          && screen.lines.filter { $0.contains("[y/n]") }.count == round + 1
      }
      #expect(asked.contains("Allow use of key"), "\(asked)")
      try agent.type(answer)
      let result = try signing.finish()
      #expect((result.status == 0) == signs, "\(answer): \(result.error)")
      #expect((access(message + ".sig", F_OK) == 0) == signs)
      let word = signs ? "yes" : "no"
      #expect(try agent.screen().lines.contains { $0.hasSuffix("[y/n] \(word)") })
    }
  }

  static let hasGit = isExecutable("/usr/bin/git")

  /// `git credential fill` with no helper: git asks GIT_ASKPASS for the user
  /// name and the password (GIT_TERMINAL_PROMPT=0 keeps it from falling back
  /// to its own terminal prompt).
  func gitCredentialFill(in directory: TemporaryDirectory) throws -> TerminalSession {
    var options = TerminalSession.Options()
    options.environment = [
      "GIT_ASKPASS": secretfieldAskpass, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
      "HOME": directory.path, "PATH": "/usr/bin:/bin",
    ]
    options.standardInput = .bytes(Array("protocol=https\nhost=example.invalid\n\n".utf8))
    options.standardOutput = .captured
    options.standardError = .captured
    return try TerminalSession(
      executable: "/usr/bin/git", arguments: ["-c", "credential.helper=", "credential", "fill"],
      options: options)
  }

  @Test(
    "git with GIT_ASKPASS receives the user name and password typed into our prompt",
    .enabled(if: hasGit, "needs git"))
  func gitCredential() throws {
    let directory = try TemporaryDirectory()
    let session = try gitCredentialFill(in: directory)
    let asked = try session.waitForText("Username for 'https://example.invalid':")
    #expect(asked.shows("Tab show · Enter OK · Esc cancel"), "our askpass asks: \(asked)")
    try session.type("alice\r")
    try session.waitForText("Password for 'https://alice@example.invalid':")
    try session.type("s3cret é\r")
    #expect(try session.waitForExit() == .exited(0))
    #expect(
      try session.standardOutput()
        == "protocol=https\nhost=example.invalid\nusername=alice\npassword=s3cret é\n")
    #expect(!(try session.screen().contains("s3cret")))
  }

  @Test(
    "control: cancelling our prompt leaves git without a password",
    .enabled(if: hasGit, "needs git"))
  func gitCancelled() throws {
    let directory = try TemporaryDirectory()
    let session = try gitCredentialFill(in: directory)
    try session.waitForText("Username for 'https://example.invalid':")
    try session.type("alice\r")
    try session.waitForText("Password for 'https://alice@example.invalid':")
    try session.type(Key.escape)
    let status = try session.waitForExit()
    #expect(status != .exited(0), "\(status)")
    #expect(!(try session.standardOutput().contains("password=")))
  }
}
