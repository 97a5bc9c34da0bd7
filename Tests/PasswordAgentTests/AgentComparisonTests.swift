import Foundation
import Glibc
import PTYSupport
import TestSupport
import Testing

/// A terminal password agent, ours or systemd's, and what it was seen to do.
struct TerminalAgent: CustomTestStringConvertible, Sendable {
  let name: String
  let executable: String
  /// What `a b ← c Enter` answers.
  let arrowAnswer: String
  /// The signals after which it leaves the terminal as it found it.
  let restoresAfter: Set<Int32>
  /// The signals it blocks while asking, so they do not end it.
  var holdsWhileAsking: Set<Int32> = []
  /// What the screen shows of the message `Disk ESC[31mred:`.
  let shownMessage: String
  /// Whether keys typed while it waits to send an answer to an asker that
  /// does not read are echoed (it restored the terminal before sending).
  var echoesWhileSending = false
  /// What follows the password in its answer's datagram.
  var answerEnd: [UInt8] = []
  var testDescription: String { name }

  static let ours = TerminalAgent(
    name: "secretfield agent", executable: builtExecutable("secretfield"), arrowAnswer: "acb\n",
    restoresAfter: [SIGTERM, SIGHUP, SIGINT, SIGQUIT], shownMessage: "Disk \\e[31mred:")
  /// systemd 252: reads keys byte by byte (an arrow key's bytes go into the
  /// password); SIGHUP and SIGINT end it with the terminal left raw; it blocks
  /// SIGTERM while asking; it writes the message to the terminal as it is.
  static let systemd = TerminalAgent(
    name: "systemd-tty-ask-password-agent", executable: AskPasswordNamespace.ttyAgentPath,
    arrowAnswer: "ab\u{1B}[Dc\n", restoresAfter: [], holdsWhileAsking: [SIGTERM],
    shownMessage: "Disk red:", echoesWhileSending: true, answerEnd: [0])
  static let both = [ours, systemd]
}

/// Ours beside `systemd-tty-ask-password-agent --query`, through the same pty
/// harness and the same asker: the measurements the README reports.
@Suite(
  "secretfield agent beside systemd-tty-ask-password-agent",
  .enabled(
    if: AskPasswordNamespace.isAvailable
      && access(AskPasswordNamespace.ttyAgentPath, X_OK) == 0,
    "needs root, unshare, nsenter and systemd's tools"))
struct AgentComparisonTests {
  /// Asks `message`, types `keys` into `agent` once its screen shows
  /// `shown`, expects it to exit 0 and returns what the asker printed.
  static func answer(
    _ message: String, shown: String, keys: [String], by agent: TerminalAgent,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [UInt8] {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask(message)
    let session = try namespace.startQueryAgent(waitingFor: shown, executable: agent.executable)
    try session.type(keys: keys)
    #expect(try session.waitForExit() == .exited(0), sourceLocation: sourceLocation)
    return asker.finish().output
  }

  @Test(
    "arrow keys: ours moves the caret, systemd's agent puts their bytes in the password",
    arguments: TerminalAgent.both)
  func arrowKeys(_ agent: TerminalAgent) throws {
    let answer = try Self.answer(
      "Arrow test:", shown: "Arrow test:", keys: ["a", "b", Key.left, "c", Key.enter], by: agent)
    #expect(answer == Array(agent.arrowAnswer.utf8))
  }

  @Test(
    "an asker that does not read: ours keeps echo off while it waits to send and asks the next; systemd's echoes what is typed (the control)",
    arguments: TerminalAgent.both)
  func askerThatDoesNotRead(_ agent: TerminalAgent) throws {
    let namespace = try AskPasswordNamespace()
    let (stuck, next) = try AgentHostileTests.stuckAndNextRequests(namespace)
    let session = try namespace.startAgent(["--query"], executable: agent.executable)
    // Ours asks the older first; systemd's in the directory's order.
    let first = try session.waitForScreen("a prompt") {
      $0.contains("Stuck:") || $0.contains("Next:")
    }
    let nextFirst = !first.contains("Stuck:")
    #expect(!nextFirst || agent.executable == TerminalAgent.systemd.executable)
    if nextFirst {
      try session.type(keys: ["n", "e", "x", "t", Key.enter])
      try session.waitForText("Stuck:")
    }
    try session.type(keys: ["s", "e", "k", "r", "i", "t", Key.enter])
    try waitUntilSending(session.processID)
    let sending = try session.attributes()
    #expect(sending.isEchoing == agent.echoesWhileSending, "\(sending)")
    try session.type("cleartext")
    if !agent.echoesWhileSending {
      // In the queue before the answer goes: restoring the modes drops it.
      try session.waitForQueuedInput(atLeast: "cleartext".utf8.count)
    }
    if agent.echoesWhileSending {
      // The control: the screen reader sees what the terminal echoes.
      try session.waitForText("cleartext")
    }
    // Room at last: the answer goes through and the next request is asked.
    #expect(stuck.drainUntilAnswer() == Array("+sekrit".utf8) + agent.answerEnd)
    if !nextFirst {
      try session.waitForText("Next:")
      try session.type(keys: ["n", "e", "x", "t", Key.enter])
    }
    #expect(try session.waitForExit() == .exited(0))
    // Drawn over since, perhaps, but never sent to the terminal.
    #expect(try session.screen().transcript.contains("cleartext") == agent.echoesWhileSending)
    #expect(next.receive() == Array("+next".utf8) + agent.answerEnd)
  }

  @Test(
    "a signal while asking: ours dies by it with the terminal restored; systemd's leaves it raw",
    arguments: TerminalAgent.both, [SIGTERM, SIGHUP, SIGINT])
  func signalRestores(_ agent: TerminalAgent, signal: Int32) throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Signal test:")
    let session = try namespace.startQueryAgent(
      waitingFor: "Signal test:", executable: agent.executable)
    // systemd's agent draws its prompt before it turns echo off.
    let deadline = ContinuousClock.now + .seconds(30)
    while try session.attributes().isEchoing {
      guard ContinuousClock.now < deadline else { throw HarnessError("echo never went off") }
      usleep(10_000)
    }
    try session.send(signal: signal)
    if agent.holdsWhileAsking.contains(signal) {
      // Blocked and left pending: it keeps asking, the terminal raw, until
      // killed, as systemd's stop timeout would (SIGKILL).
      try waitUntilPending(signal, in: session.processID)
      let held = try session.attributes()
      #expect(!held.isEchoing && !held.isCanonical, "\(held)")
      try session.send(signal: SIGKILL)
    }
    let status = try session.waitForExit()
    if agent.restoresAfter.contains(signal) { #expect(status == .signaled(signal)) }
    let after = try session.attributes()
    let restored = after == session.initialAttributes
    #expect(restored == agent.restoresAfter.contains(signal), "\(after)")
    withExtendedLifetime(asker) {}
  }

  @Test(
    "a message with an escape sequence: ours shows it escaped, systemd's agent sends it",
    arguments: TerminalAgent.both)
  func messageEscapes(_ agent: TerminalAgent) throws {
    let answer = try Self.answer(
      "Disk \u{1B}[31mred:", shown: agent.shownMessage, keys: ["x", Key.enter], by: agent)
    #expect(answer == Array("x\n".utf8))
  }
}

/// Waits until `processID` waits to send: blocked in `sendto(2)` or
/// `sendmsg(2)`, or in a `poll(2)` that asks for `POLLOUT` (the agent's wait
/// for room in the asker's queue, beside its signal relay; its prompt polls
/// the terminal and its signals for input). The `pollfd` array is read from
/// the process's memory (as root).
func waitUntilSending(_ processID: Int32) throws {
  let deadline = ContinuousClock.now + .seconds(30)
  while true {
    let syscall = (try? String(contentsOfFile: "/proc/\(processID)/syscall", encoding: .utf8)) ?? ""
    let fields = syscall.split(separator: " ")
    // x86_64: poll 7, sendto 44, sendmsg 46.
    if fields.first == "44" || fields.first == "46" { return }
    if fields.first == "7", fields.count > 2,
      let address = UInt64(fields[1].dropFirst(2), radix: 16),
      let count = Int(fields[2].dropFirst(2), radix: 16),
      pollRequests(of: processID, at: address, count: count).contains(where: {
        $0.events & Int16(POLLOUT) != 0
      })
    {
      return
    }
    guard ContinuousClock.now < deadline else {
      throw HarnessError("\(processID) never waited to send (\(syscall))")
    }
    usleep(10_000)
  }
}

/// The `count` (at most 8) `pollfd` entries at `address` in `processID`'s
/// memory; empty when they cannot be read.
private func pollRequests(of processID: Int32, at address: UInt64, count: Int) -> [pollfd] {
  guard (1...8).contains(count) else { return [] }
  let memory = open("/proc/\(processID)/mem", O_RDONLY | O_CLOEXEC)
  guard memory >= 0 else { return [] }
  defer { close(memory) }
  var requests = [pollfd](repeating: pollfd(), count: count)
  let wanted = count * MemoryLayout<pollfd>.stride
  let got = requests.withUnsafeMutableBytes {
    pread(memory, $0.baseAddress, wanted, off_t(address))
  }
  return got == wanted ? requests : []
}

/// Waits until `signal` is pending for `processID` (its `/proc` status shows
/// it in `SigPnd` or `ShdPnd`): sent, and held.
func waitUntilPending(_ signal: Int32, in processID: Int32) throws {
  try waitForSignal(signal, in: processID, pending: true)
}

/// Waits until `signal` is (or, with `pending` false, is no longer) pending
/// for `processID`, as its `/proc` status shows in `SigPnd` or `ShdPnd`.
func waitForSignal(_ signal: Int32, in processID: Int32, pending: Bool) throws {
  let bit = UInt64(1) << UInt64(signal - 1)
  let deadline = ContinuousClock.now + .seconds(30)
  while true {
    let status = (try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)) ?? ""
    let masks = status.split(separator: "\n").filter {
      $0.hasPrefix("SigPnd:") || $0.hasPrefix("ShdPnd:")
    }.compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
    if masks.contains(where: { $0 & bit != 0 }) == pending { return }
    guard ContinuousClock.now < deadline else {
      throw HarnessError(
        "signal \(signal) \(pending ? "never showed as" : "stayed") pending for \(processID)")
    }
    usleep(10_000)
  }
}
