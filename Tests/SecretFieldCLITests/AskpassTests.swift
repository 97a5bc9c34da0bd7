import Glibc
import PTYSupport
import Testing

/// A way for the askpass's prompt to end without an answer.
struct AskpassCancel: CustomTestStringConvertible, Sendable {
  let name: String
  let typed: String
  let key: String
  var testDescription: String { name }

  static let all = [
    AskpassCancel(name: "Esc", typed: "ab", key: Key.escape),
    AskpassCancel(name: "^C", typed: "ab", key: Key.controlC),
    AskpassCancel(name: "^D on an empty field", typed: "", key: Key.controlD),
  ]
}

@Suite("secretfield-askpass keeps the contract of ssh, sudo and git")
struct AskpassTests {
  @Test("the prompt from the argument, drawn on the terminal; the secret and a newline on stdout")
  func secret() throws {
    let session = try startAskpass(
      ["Enter passphrase for /tmp/k: "], waitingFor: "Enter passphrase for /tmp/k:")
    let asking = try session.screen()
    #expect(asking.shows("Tab show · Enter OK · Esc cancel"), "our prompt, not another's")
    try session.type("pass é 日")
    try session.waitForScreen("5 masks") { $0.shows("Enter passphrase for /tmp/k: •••••••") }
    try session.submit(expectingOutput: "pass é 日\n")
    #expect(try session.standardError() == "")
    let after = try session.screen()
    #expect(!after.contains("pass é"), "\(after)")
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("no argument: \"Password:\"; several lines: all shown, the last before the field")
  func promptText() throws {
    let plain = try startAskpass([], waitingFor: "Password:")
    try plain.type("x\r")
    #expect(try plain.waitForExit() == .exited(0))
    #expect(try plain.standardOutput() == "x\n")

    let lines = try startAskpass(
      ["Host key for example.org has changed.\nAre you sure (yes/no)? "],
      waitingFor: "Are you sure (yes/no)?")
    let screen = try lines.screen()
    #expect(screen.shows("Host key for example.org has changed."))
    try lines.type("yes\r")
    #expect(try lines.waitForExit() == .exited(0))
    #expect(try lines.standardOutput() == "yes\n")
  }

  @Test("any cancel: nothing on stdout, exit 1", arguments: AskpassCancel.all)
  func cancel(_ cancel: AskpassCancel) throws {
    let session = try startAskpass(["Password for 'https://host': "], waitingFor: "Password for")
    if !cancel.typed.isEmpty {
      try session.type(cancel.typed)
      try session.waitForMasks(cancel.typed.count, prompt: "Password for 'https://host':")
    }
    try session.type(cancel.key)
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.standardOutput() == "")
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("SIGTERM from the caller: the terminal restored, death by SIGTERM, nothing on stdout")
  func terminated() throws {
    let session = try startAskpass(["Password:"], waitingFor: "Password:")
    try session.typeMasked("ab")
    try session.send(signal: SIGTERM)
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    #expect(try session.standardOutput() == "")
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("no terminal: exit 1, nothing on stdout, a message that says so")
  func noTerminal() throws {
    let (status, output, error) = try runAskpassWithoutTerminal(["Password:"])
    #expect(status == .exited(1))
    #expect(output == "")
    #expect(error.hasPrefix("secretfield-askpass: no terminal to prompt on"), "\(error)")
    #expect(!error.contains("--stdin"), "the askpass has no --stdin")
  }

  @Test("stdout a terminal: refused with exit 1 before prompting")
  func standardOutputIsTerminal() throws {
    let session = try startWithOutputOnTerminal(secretfieldAskpass, ["Password:"])
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.standardError().contains("standard output is a terminal"))
    #expect(!(try session.screen().contains("Password:")))
  }

  @Test("--help and --version, alone; anything else is the prompt")
  func helpAndVersion() throws {
    let help = try runAskpassWithoutTerminal(["--help"])
    #expect(help.status == .exited(0))
    #expect(help.output.contains("Usage: secretfield-askpass [PROMPT]"))
    #expect(help.output.contains("SSH_ASKPASS_PROMPT=confirm"))
    let version = try runAskpassWithoutTerminal(["--version"])
    #expect(version.output.hasPrefix("secretfield-askpass "))
    let prompt = try startAskpass(["--help", "me:"], waitingFor: "--help me:")
    try prompt.type(Key.escape)
    #expect(try prompt.waitForExit() == .exited(1))
  }

  // MARK: SSH_ASKPASS_PROMPT=confirm

  @Test("confirm: y answers yes (exit 0, nothing written); the answer stays on the screen")
  func confirmYes() throws {
    let session = try startAskpass(
      ["Allow use of key /tmp/k?\nKey fingerprint SHA256:abc."],
      environment: ["SSH_ASKPASS_PROMPT": "confirm"], waitingFor: "[y/n]")
    let asking = try session.screen()
    #expect(asking.shows("Allow use of key /tmp/k?"))
    #expect(asking.shows("Key fingerprint SHA256:abc. [y/n]"))
    // Enter and other letters are no answer (they would say no): the question
    // stays for the y.
    try session.type(Key.enter)
    try session.type("x")
    try session.type("Y")
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "")
    #expect(try session.screen().shows("Key fingerprint SHA256:abc. [y/n] yes"))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test(
    "confirm: n, Esc, ^C and ^D answer no (exit 1)",
    arguments: ["n", Key.escape, Key.controlC, Key.controlD])
  func confirmNo(_ key: String) throws {
    let session = try startAskpass(
      ["Allow?"], environment: ["SSH_ASKPASS_PROMPT": "confirm"], waitingFor: "Allow? [y/n]")
    try session.type(key)
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.standardOutput() == "")
    #expect(try session.screen().shows("Allow? [y/n] no"))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("confirm: a pasted y is no answer: the n after it answers")
  func confirmPaste() throws {
    let session = try startAskpass(
      ["Allow?"], environment: ["SSH_ASKPASS_PROMPT": "confirm"], waitingFor: "Allow? [y/n]")
    try session.type(Key.paste("y"))
    try session.type("n")
    #expect(try session.waitForExit() == .exited(1))
    #expect(try session.screen().shows("Allow? [y/n] no"))
  }

  @Test("confirm: the question cannot send escape sequences; SIGTERM restores and ends it")
  func confirmSanitizedAndTerminated() throws {
    let session = try startAskpass(
      ["Allow\u{1B}[2J?"], environment: ["SSH_ASKPASS_PROMPT": "confirm"],
      waitingFor: "Allow?[2J? [y/n]")
    #expect(try session.attributes() != session.initialAttributes, "raw while asking")
    try session.send(signal: SIGTERM)
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    #expect(try session.attributes() == session.initialAttributes)
  }

  // MARK: SSH_ASKPASS_PROMPT=none

  @Test("none: shows the message, changes no mode, and waits until the caller ends it")
  func notice() throws {
    let session = try startAskpass(
      ["Confirm user presence for key ED25519-SK SHA256:abc"],
      environment: ["SSH_ASKPASS_PROMPT": "none"],
      waitingFor: "Confirm user presence for key ED25519-SK SHA256:abc")
    #expect(try session.attributes() == session.initialAttributes)
    // Still there after a key: only a signal ends it.
    try session.type("\r")
    try session.send(signal: SIGTERM)
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    #expect(try session.standardOutput() == "")
    #expect(try session.attributes() == session.initialAttributes)
  }
}
