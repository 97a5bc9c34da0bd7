import Foundation
import Glibc
import PTYSupport
import PasswordAgent
import SecureMemory
import TestSupport
import Testing

/// What an attack on `secretfield agent` tried, each in a private mount
/// namespace with a tmpfs over the request directory, typed into on a pty.
@Suite(
  "secretfield agent under attack",
  .enabled(
    if: AskPasswordNamespace.isAvailable, "needs root, unshare, nsenter and systemd-ask-password"))
struct AgentHostileTests {
  /// A hand-written request in `namespace` for the socket `name` the test
  /// binds there, asking `message`.
  static func request(
    _ namespace: AskPasswordNamespace, file: String, socket name: String, message: String
  ) throws -> DatagramSocket {
    let socket = try DatagramSocket(path: namespace.outsideDirectory + "/" + name)
    try namespace.writeRequest(
      file, "[Ask]\nPID=\(getpid())\nSocket=\(namespace.directory)/\(name)\nMessage=\(message)\n")
    return socket
  }

  /// Two requests in `namespace`: `Stuck:`, whose asker does not read (its
  /// socket's queue is full), written before `Next:`.
  static func stuckAndNextRequests(
    _ namespace: AskPasswordNamespace
  ) throws -> (stuck: DatagramSocket, next: DatagramSocket) {
    let stuck = try request(
      namespace, file: "ask.1stuck", socket: "sck.stuck", message: "Stuck:")
    try stuck.fillQueue()
    let next = try request(namespace, file: "ask.2next", socket: "sck.next", message: "Next:")
    return (stuck, next)
  }

  @Test(
    "a socket swapped for a link to another while the prompt is up gets nothing: the answer goes to the socket that was checked"
  )
  func swappedSocket() throws {
    let namespace = try AskPasswordNamespace()
    let original = try Self.request(
      namespace, file: "ask.swap", socket: "sck.swap", message: "Swapped:")
    let elsewhere = try TemporaryDirectory()
    let attacker = try DatagramSocket(path: elsewhere.path + "/attacker")
    let session = try namespace.startQueryAgent(waitingFor: "Swapped:")
    // The original moves aside (it still exists); its name becomes a link to
    // the attacker's socket, which a request naming it directly could never
    // have: it is outside the directory.
    let swappedPath = namespace.outsideDirectory + "/sck.swap"
    #expect(rename(swappedPath, namespace.outsideDirectory + "/sck.aside") == 0)
    #expect(symlink(attacker.path, swappedPath) == 0)
    try session.type(keys: ["s", "e", "k", "r", "i", "t"])
    try session.waitForMasks(6, after: "Swapped:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(attacker.receiveWaiting() == nil)
    #expect(original.receiveWaiting() == Array("+sekrit".utf8))
    unlink(namespace.outsideDirectory + "/sck.aside")
  }

  @Test("the control: the same socket left in place gets the answer")
  func socketLeftInPlace() throws {
    let namespace = try AskPasswordNamespace()
    let original = try Self.request(
      namespace, file: "ask.kept", socket: "sck.kept", message: "Kept:")
    let session = try namespace.startQueryAgent(waitingFor: "Kept:")
    try session.type(keys: ["s", "e", "k", "r", "i", "t", Key.enter])
    #expect(try session.waitForExit() == .exited(0))
    #expect(original.receiveWaiting() == Array("+sekrit".utf8))
  }

  @Test(
    "an asker that never reads: echo stays off until the send gives up, then the next request is asked"
  )
  func askerThatNeverReads() throws {
    let namespace = try AskPasswordNamespace()
    let (stuck, next) = try Self.stuckAndNextRequests(namespace)
    let session = try namespace.startQueryAgent(waitingFor: "Stuck:")
    try session.type(keys: ["s", "e", "k", "r", "i", "t", Key.enter])
    try waitUntilSending(session.processID)
    let sending = try session.attributes()
    #expect(!sending.isEchoing && !sending.isCanonical, "\(sending)")
    try session.type("cleartext")
    // Nobody drains the queue: the agent gives up at its deadline.
    try session.waitForText("Next:")
    try session.type(keys: ["n", "e", "x", "t", Key.enter])
    _ = try session.waitForExit()
    #expect(!(try session.screen().transcript.contains("cleartext")))
    let errors = String(decoding: try session.capturedOutput(stream: 2), as: UTF8.self)
    #expect(errors.contains("'Stuck:': the asking program does not read its socket"), "\(errors)")
    #expect(next.receive() == Array("+next".utf8))
    var leftover: [[UInt8]] = []
    while let datagram = stuck.receiveWaiting() { leftover.append(datagram) }
    #expect(leftover.allSatisfy { $0.first == UInt8(ascii: "f") }, "the answer was queued")
  }

  /// Answers `sekrit` to a request whose socket's queue is full (the asker
  /// does not read), and returns once the agent waits in its send.
  static func answerAskerThatDoesNotRead(named name: String) throws -> (
    namespace: AskPasswordNamespace, stuck: DatagramSocket, session: TerminalSession
  ) {
    let namespace = try AskPasswordNamespace()
    let stuck = try request(
      namespace, file: "ask.\(name)", socket: "sck.\(name)", message: "Stuck:")
    try stuck.fillQueue()
    let session = try namespace.startQueryAgent(waitingFor: "Stuck:")
    try session.type(keys: ["s", "e", "k", "r", "i", "t", Key.enter])
    try waitUntilSending(session.processID)
    return (namespace, stuck, session)
  }

  @Test(
    "SIGTERM while the send waits for an asker that does not read: the agent dies by it at once, and the answer never goes"
  )
  func terminatedWhileSending() throws {
    let (namespace, stuck, session) = try Self.answerAskerThatDoesNotRead(named: "term")
    defer { withExtendedLifetime(namespace) {} }
    try session.send(signal: SIGTERM)
    try waitUntilTaken(SIGTERM, by: session.processID)
    // Room at last: a send still waiting once the signal was taken would go
    // through now, long before its own deadline. (This is what failed: the
    // signal waited until the send ended.)
    var received: [[UInt8]] = []
    while let datagram = stuck.receiveWaiting() { received.append(datagram) }
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    while let datagram = stuck.receiveWaiting() { received.append(datagram) }
    #expect(
      received.allSatisfy { $0.first == UInt8(ascii: "f") }, "the answer went after SIGTERM")
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!(try session.screen().bracketedPaste))
  }

  @Test("the control: the same send, with room made and no signal, delivers the answer")
  func roomMadeWhileSending() throws {
    let (namespace, stuck, session) = try Self.answerAskerThatDoesNotRead(named: "room")
    defer { withExtendedLifetime(namespace) {} }
    var received: [[UInt8]] = []
    while let datagram = stuck.receiveWaiting() { received.append(datagram) }
    #expect(try session.waitForExit() == .exited(0))
    while let datagram = stuck.receiveWaiting() { received.append(datagram) }
    #expect(received.last == Array("+sekrit".utf8))
  }
}

/// Waits until `signal`, sent to `processID`, is no longer pending there: its
/// handler has taken it.
func waitUntilTaken(_ signal: Int32, by processID: Int32) throws {
  try waitForSignal(signal, in: processID, pending: false)
}
