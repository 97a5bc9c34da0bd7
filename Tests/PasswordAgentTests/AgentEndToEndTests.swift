import Foundation
import Glibc
import PTYSupport
import PasswordAgent
import Testing

/// `secretfield agent` answering the real `systemd-ask-password --no-tty`, in
/// a private mount namespace with a tmpfs over the request directory, typed
/// into on a real pty.
@Suite(
  "secretfield agent with systemd-ask-password",
  .enabled(
    if: AskPasswordNamespace.isAvailable, "needs root, unshare, nsenter and systemd-ask-password"))
struct AgentEndToEndTests {
  @Test("a passphrase typed with edits and a reveal toggle reaches systemd-ask-password exactly")
  func editsAndReveal() throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Disk passphrase:", options: ["--id=cryptsetup:test"])
    let session = try namespace.startAgent(["--query"])
    let screen = try session.waitForText("Disk passphrase:")
    #expect(screen.shows("Password request · PID \(asker.processID) · cryptsetup:test"))
    try session.type(keys: [
      "p", "a", "s", "x", Key.backspace, "s", Key.home, "X", Key.right, Key.left, Key.backspace,
    ])
    try session.type(keys: [Key.end, "w", "ö", "r", "d"])
    try session.waitForMasks(8, after: "Disk passphrase:")
    try session.type(Key.tab)
    try session.waitForText("Disk passphrase: passwörd")
    try session.type(Key.tab)
    try session.waitForMasks(8, after: "Disk passphrase:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    let answer = asker.finish()
    #expect(answer.status == 0)
    #expect(answer.output == Array("passwörd\n".utf8))
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!(try session.screen().shows("passwörd")))
  }

  @Test("Esc declines: systemd-ask-password fails and prints nothing")
  func escapeCancels() throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Disk passphrase:")
    let session = try namespace.startQueryAgent(waitingFor: "Disk passphrase:")
    try session.type(keys: ["s", "e", "c"])
    try session.waitForMasks(3, after: "Disk passphrase:")
    try session.type(Key.escape)
    #expect(try session.waitForExit() == .exited(1))
    let answer = asker.finish()
    #expect(answer.status != 0)
    #expect(answer.output.isEmpty)
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("two requests are asked oldest first, each saying which it is, and answered in order")
  func twoInOrder() throws {
    let namespace = try AskPasswordNamespace()
    let first = try namespace.ask("First disk:")
    let second = try namespace.ask("Second disk:")
    let session = try namespace.startAgent(["--query"])
    let screen = try session.waitForText("First disk:")
    #expect(screen.shows("Password request 1 of 2 · PID \(first.processID)"))
    try session.type(keys: ["o", "n", "e"])
    try session.waitForMasks(3, after: "First disk:")
    try session.type(Key.enter)
    try session.waitForText("Password request 2 of 2 · PID \(second.processID)")
    try session.waitForText("Second disk:")
    try session.type(keys: ["t", "w", "o"])
    try session.waitForMasks(3, after: "Second disk:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(first.finish().output == Array("one\n".utf8))
    #expect(second.finish().output == Array("two\n".utf8))
  }

  @Test("a request whose NotAfter passes while it is asked is withdrawn; the terminal restored")
  func deadlineWithdraws() throws {
    let namespace = try AskPasswordNamespace()
    let socket = try DatagramSocket(path: namespace.outsideDirectory + "/sck.deadline")
    let notAfter = PasswordRequest.monotonicNow() + 2_000_000
    try namespace.writeRequest(
      "ask.deadline",
      "[Ask]\nPID=\(getpid())\nSocket=\(namespace.directory)/sck.deadline\nNotAfter=\(notAfter)\nMessage=Soon gone:\n"
    )
    let session = try namespace.startQueryAgent(waitingFor: "Soon gone:")
    try session.type(keys: ["a", "b"])
    try session.waitForMasks(2, after: "Soon gone:")
    try expectWithdrawn(session, "'Soon gone:' was withdrawn: its time ran out", socket: socket)
  }

  @Test("a request whose file is removed while it is asked is withdrawn")
  func removalWithdraws() throws {
    let namespace = try AskPasswordNamespace()
    let socket = try DatagramSocket(path: namespace.outsideDirectory + "/sck.removed")
    try namespace.writeRequest(
      "ask.removed",
      "[Ask]\nPID=\(getpid())\nSocket=\(namespace.directory)/sck.removed\nMessage=Going:\n")
    let session = try namespace.startQueryAgent(waitingFor: "Going:")
    unlink(namespace.outsideDirectory + "/ask.removed")
    try expectWithdrawn(
      session, "'Going:' was withdrawn: its request file was removed", socket: socket)
  }

  @Test("a message's control characters are shown escaped, not sent to the terminal")
  func controlCharactersEscaped() throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Disk \u{1B}[31mred\u{07}:")
    let session = try namespace.startAgent(["--query"])
    let screen = try session.waitForText("Disk \\e[31mred\\x07:")
    #expect(!screen.lines.contains { $0.hasPrefix("Disk red") })
    try session.type(keys: ["x", Key.enter])
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("x\n".utf8))
  }

  @Test("every bad file is skipped with one line, and the good request after them is answered")
  func badInputThenGood() throws {
    let namespace = try AskPasswordNamespace()
    let inside = namespace.directory
    try namespace.writeRequest("ask.malformed", "[Ask]\nSocket=\(inside)/sck.x\nno equals sign\n")
    try namespace.writeRequest("ask.nosocket", "[Ask]\nMessage=No socket\n")
    try namespace.writeRequest(
      "ask.long", "[Ask]\nSocket=\(inside)/\(String(repeating: "s", count: 110))\n")
    try namespace.writeRequest("ask.outside", "[Ask]\nSocket=/tmp/sck.elsewhere\n")
    try namespace.writeRequest("ask.binary", "[Ask]\nSocket=\u{0}\u{1}\n")
    #expect(symlink("/etc/passwd", namespace.outsideDirectory + "/ask.symlink") == 0)
    for index in 0..<300 {
      try namespace.writeRequest(
        String(format: "ask.many%03d", index),
        "[Ask]\nPID=\(getpid())\nSocket=\(inside)/sck.many\(index)\nMessage=Many\n")
    }
    let asker = try namespace.ask("Good one:")
    let session = try namespace.startQueryAgent(waitingFor: "Good one:")
    try session.type(keys: ["o", "k"])
    try session.waitForMasks(2, after: "Good one:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("ok\n".utf8))
    let lines = try session.standardError().split(separator: "\n")
    #expect(lines.count == 306, "\(lines.prefix(8))")
    #expect(lines.allSatisfy { $0.hasPrefix("secretfield agent: skipped ask.") })
    let expected = [
      "ask.malformed: it is not a request: a line that is not [Section], a comment or Key=Value on line 3",
      "ask.nosocket: it is not a request: no Socket= in [Ask]",
      "ask.long: its Socket= is longer than 107 bytes",
      "ask.outside: its Socket= is outside the request directory",
      "ask.binary: it is not a request: the file holds a NUL byte",
      "ask.symlink: it is a symbolic link",
      "ask.many000: its Socket= is not a socket",
    ]
    for line in expected {
      #expect(lines.contains { $0 == "secretfield agent: skipped " + line }, "\(line)")
    }
  }

  @Test("--list prints each waiting request, and says what it skips")
  func list() throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Listed:", options: ["--id=cryptsetup:listed", "--timeout=600"])
    try namespace.writeRequest("ask.bad", "[Ask]\nMessage=no socket\n")
    var options = TerminalSession.Options()
    options.hasControllingTerminal = false
    let session = try namespace.startAgent(["--list"], options: options)
    #expect(try session.waitForExit() == .exited(0))
    let output = try session.standardOutput()
    let name = try #require(namespace.requestFiles().first { $0 != "ask.bad" })
    #expect(output.hasPrefix("'Listed:' (PID \(asker.processID), id cryptsetup:listed, "))
    #expect(output.hasSuffix(" s left) \(name)\n"))
    #expect(
      try session.standardError()
        == "secretfield agent: skipped ask.bad: it is not a request: no Socket= in [Ask]\n")
  }

  @Test("--watch answers requests as they come, and SIGTERM ends it with the terminal restored")
  func watch() throws {
    let namespace = try AskPasswordNamespace()
    let session = try namespace.startAgent(["--watch"])
    for (message, answer) in [("Later one:", "1st"), ("Later two:", "2nd")] {
      let asker = try namespace.ask(message)
      try session.waitForText(message)
      try session.type(keys: answer.map(String.init))
      try session.waitForMasks(3, after: message)
      try session.type(Key.enter)
      #expect(asker.finish().output == Array((answer + "\n").utf8))
    }
    // Kept alive: an asker that is gone is not asked.
    let unanswered = try namespace.ask("Never answered:")
    try session.waitForText("Never answered:")
    try session.send(signal: SIGTERM)
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    #expect(try session.attributes() == session.initialAttributes)
    withExtendedLifetime(unanswered) {}
  }

  @Test("--console=DEVICE asks on that terminal, not the agent's own")
  func console() throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("On the console:")
    // A terminal with nothing reading it, standing in for /dev/console.
    let console = try TerminalSession(executable: "/bin/sleep", arguments: ["1000"])
    let session = try namespace.startAgent(["--query", "--console=\(console.terminalPath)"])
    try console.waitForText("On the console:")
    #expect(!(try session.screen().shows("On the console:")))
    try console.type(keys: ["c", "o", "n", Key.enter])
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("con\n".utf8))
  }

  @Test("Echo=1 starts revealed (Tab masks it); Silent=1 shows nothing of the typing")
  func echoAndSilent() throws {
    let namespace = try AskPasswordNamespace()
    let echoed = try namespace.ask("Shown:", options: ["--echo=yes"])
    let session = try namespace.startQueryAgent(waitingFor: "Shown:")
    try session.type(keys: ["v", "i", "s"])
    try session.waitForText("Shown: vis")
    try session.type(Key.tab)
    try session.waitForMasks(3, after: "Shown:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(echoed.finish().output == Array("vis\n".utf8))

    let socket = try DatagramSocket(path: namespace.outsideDirectory + "/sck.silent")
    try namespace.writeRequest(
      "ask.silent",
      "[Ask]\nPID=\(getpid())\nSocket=\(namespace.directory)/sck.silent\nSilent=1\nMessage=Hidden:\n"
    )
    let silent = try namespace.startAgent(["--query"])
    try silent.waitForText("typing is not shown")
    try silent.type(keys: ["h", "i", "d"])
    try silent.type(Key.enter)
    #expect(socket.receive() == Array("+hid".utf8))
    #expect(try silent.waitForExit() == .exited(0))
    #expect(!(try silent.screen().lines.contains { $0.hasPrefix("Hidden:") && $0.contains("•") }))
  }

  @Test("a request that vanishes while another is asked is not asked")
  func vanishedWhileWaiting() throws {
    let namespace = try AskPasswordNamespace()
    let first = try namespace.ask("Asked:")
    let second = try namespace.ask("Vanishes:")
    let session = try namespace.startQueryAgent(waitingFor: "Asked:")
    // The asker dies without removing its file; the test removes it, as
    // systemd would clean up after a unit that was stopped.
    let vanishing = newestRequest(in: namespace)
    kill(second.processID, SIGKILL)
    _ = second.finish()
    unlink(namespace.outsideDirectory + "/" + vanishing)
    try session.type(keys: ["1", Key.enter])
    #expect(try session.waitForExit() == .exited(0))
    #expect(first.finish().output == Array("1\n".utf8))
    #expect(!(try session.screen().shows("Vanishes:")))
  }

  /// Checks that the agent ended with status 0 saying `why` on standard
  /// error, the terminal restored, and sent nothing to `socket`: the next
  /// datagram there is one the test sends itself.
  private func expectWithdrawn(
    _ session: TerminalSession, _ why: String, socket: DatagramSocket,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try session.waitForExit() == .exited(0), sourceLocation: sourceLocation)
    #expect(try session.standardError().contains(why), sourceLocation: sourceLocation)
    #expect(
      try session.attributes() == session.initialAttributes, sourceLocation: sourceLocation)
    try PasswordReply.cancel(to: socket.path)
    #expect(socket.receive() == [UInt8(ascii: "-")], sourceLocation: sourceLocation)
  }
}

/// The request file written last.
func newestRequest(in namespace: AskPasswordNamespace) -> String {
  namespace.requestFiles().max { left, right in
    modified(namespace.outsideDirectory + "/" + left)
      < modified(namespace.outsideDirectory + "/" + right)
  } ?? ""
}

/// A file's modification time in nanoseconds.
func modified(_ path: String) -> Int {
  var status = stat()
  guard stat(path, &status) == 0 else { return 0 }
  return status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec

}
