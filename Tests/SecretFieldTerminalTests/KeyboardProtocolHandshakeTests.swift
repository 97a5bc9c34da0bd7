import Glibc
import PTYSupport
import SecretFieldTerminal
import TestSupport
import Testing

@Suite("The kitty keyboard handshake: asked without waiting, decided by the first reply")
struct KeyboardProtocolHandshakeTests {
  let start = ContinuousClock.now

  func asked() -> KeyboardProtocolHandshake {
    var handshake = KeyboardProtocolHandshake(replyTimeout: .milliseconds(200))
    handshake.sent(at: start)
    return handshake
  }

  @Test("the query is the flags query, then the device attributes request, in one write")
  func query() {
    #expect(KeyboardProtocolHandshake.query == "\u{1B}[?u\u{1B}[c")
    #expect(KeyboardProtocolHandshake.flags.rawValue == 25)
  }

  @Test("a flags reply before the attributes reply: supported, push once")
  func flagsFirst() {
    var handshake = asked()
    #expect(handshake.deadline == start + .milliseconds(200))
    let pushes = handshake.receive(.keyboardFlags([]))
    #expect(pushes)
    #expect(handshake.state == .supported)
    let pushesAfterAttributes = handshake.receive(.deviceAttributes)
    #expect(!pushesAfterAttributes, "the attributes reply after changes nothing")
    let pushesAgain = handshake.receive(.keyboardFlags([]))
    #expect(!pushesAgain, "nor a second flags reply")
    #expect(handshake.state == .supported)
    #expect(handshake.deadline == nil)
  }

  @Test("the attributes reply first: a plain terminal, until a flags reply proves otherwise")
  func attributesFirst() {
    var handshake = asked()
    let pushesOnAttributes = handshake.receive(.deviceAttributes)
    #expect(!pushesOnAttributes)
    #expect(handshake.state == .unsupported)
    #expect(!handshake.isUnanswered)
    #expect(handshake.attributesRepliesToAwait == 1)
    // A kitty terminal answers the flags query first, so that attributes
    // reply answered an earlier `CSI c`: this query's is still to come.
    let pushesLate = handshake.receive(.keyboardFlags([]))
    #expect(pushesLate)
    #expect(handshake.state == .supported)
    #expect(handshake.attributesRepliesToAwait == 2)
    let pushesAgain = handshake.receive(.keyboardFlags([]))
    #expect(!pushesAgain, "pushed once")
  }

  @Test("no reply in time: plain, but a late flags reply still proves support")
  func noReply() {
    var handshake = asked()
    handshake.expire(at: start + .milliseconds(199))
    #expect(handshake.deadline != nil, "not overdue yet")
    handshake.expire(at: start + .milliseconds(200))
    #expect(handshake.state == .noReplyInTime)
    #expect(handshake.deadline == nil, "nothing more to wait for")
    #expect(handshake.isUnanswered)
    let pushesLate = handshake.receive(.keyboardFlags([.disambiguate]))
    #expect(pushesLate)
    #expect(handshake.state == .supported)
  }

  @Test("keys are not replies")
  func keys() {
    var handshake = asked()
    for event: KeyEvent in [.text, .submit, .capsLock(isOn: true), .focusOut] {
      let pushes = handshake.receive(event)
      #expect(!pushes)
    }
    #expect(handshake.deadline != nil)
  }

  @Test("not asked: replies change nothing")
  func notAsked() {
    var handshake = KeyboardProtocolHandshake(replyTimeout: .milliseconds(200))
    let pushesLate = handshake.receive(.keyboardFlags([]))
    #expect(!pushesLate)
    #expect(handshake.state == .notAsked)
    #expect(handshake.deadline == nil)
  }

  @Test("the prompt handles keys while the terminal has not answered: nothing waits for it")
  func promptDoesNotWait() throws {
    // A terminal that never answers, and a prompt that would wait an hour for
    // the answer: keys must still show at once, or this times out.
    var options = TerminalSession.Options()
    options.answersDeviceAttributes = false
    let session = try startProbe(
      ["--prompt", "--reply-timeout", "3600"], options: options, waitingFor: "Password:")
    try session.type("a")
    try session.type("b")
    try session.waitForText("Password: ••")
    #expect(try session.screen().keyboardLog == ["?"])
    try session.send(signal: SIGTERM)
    #expect(try session.waitForExit() == .signaled(SIGTERM))
    #expect(try session.attributes() == session.initialAttributes)
  }
}
