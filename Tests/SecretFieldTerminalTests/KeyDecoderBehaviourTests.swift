@_spi(Testing) import SecretFieldTerminal
import SecureMemory
import Testing

@Suite("KeyDecoder waits for the rest of a key only as long as it is told")
struct KeyDecoderTimingTests {
  @Test("a lone Esc waits until the deadline, and is Esc at the deadline, not before")
  func loneEscape() throws {
    var driver = try DecoderDriver()
    try driver.receive([0x1B])
    let (events, step) = try driver.drain()
    let deadline = driver.start + .milliseconds(100)
    #expect(events.isEmpty)
    #expect(step == .needsInputBefore(deadline))
    driver.now = driver.start + .milliseconds(99)
    #expect(try driver.drain().last == .needsInputBefore(deadline))
    driver.now = deadline
    #expect(try driver.drain().decoded == [.event(.escape)])
    #expect(driver.decoder.pendingInputCount == 0)
  }

  @Test("bytes that arrive while waiting restart the wait")
  func newBytesRestartTheWait() throws {
    var driver = try DecoderDriver()
    try driver.receive([0x1B])
    _ = try driver.drain()
    driver.now = driver.start + .milliseconds(60)
    try driver.receive(Array("[1;".utf8))
    #expect(try driver.drain().last == .needsInputBefore(driver.now + .milliseconds(100)))
    try driver.receive(Array("5D".utf8))
    #expect(try driver.drain().decoded == [.event(.moveWordLeft)])
  }

  @Test("the escape timeout is configurable")
  func configurableTimeout() throws {
    var configuration = KeyDecoder.Configuration()
    configuration.escapeTimeout = .milliseconds(250)
    var driver = try DecoderDriver(configuration: configuration)
    try driver.receive([0x1B])
    #expect(try driver.drain().last == .needsInputBefore(driver.start + .milliseconds(250)))
  }

  @Test("a character split across reads waits, then completes as one text event")
  func splitCharacter() throws {
    var driver = try DecoderDriver()
    try driver.receive([0x61, 0xF0, 0x9F])
    let first = try driver.drain()
    #expect(first.decoded == [.text("a")])
    #expect(first.last == .needsInputBefore(driver.start + .milliseconds(100)))
    try driver.receive([0x98, 0x80])
    #expect(try driver.drain().decoded == [.text("😀")])
  }

  @Test("a paste being gathered waits without a deadline, even on a partial end marker")
  func pasteWaitsWithoutDeadline() throws {
    var driver = try DecoderDriver()
    try driver.receive(Array((csi + "200~abc" + csi + "20").utf8))
    #expect(try driver.drain() == ([], .needsInput))
    try driver.receive(Array("1~".utf8))
    #expect(try driver.drain().decoded == [.paste("abc")])
  }

  @Test("an escape string longer than the limit is unknown at once")
  func sequenceLimit() throws {
    var configuration = KeyDecoder.Configuration()
    configuration.maximumSequenceCount = 16
    var driver = try DecoderDriver(configuration: configuration)
    try driver.receive(Array((esc + "]0;" + String(repeating: "x", count: 20)).utf8))
    #expect(try driver.drain() == ([.event(.unknownSequence)], .needsInput))
  }
}

@Suite("KeyDecoder keeps pastes and payloads within bounds")
struct KeyDecoderPayloadTests {
  @Test("the payload is lent until the next call, which wipes it")
  func payloadLifetime() throws {
    var driver = try DecoderDriver()
    try driver.receive(Array("pw".utf8))
    #expect(try driver.decoder.next(at: driver.now) == .event(.text))
    #expect(driver.payload() == Array("pw".utf8))
    #expect(driver.decoder.payloadCount == 2)
    #expect(try driver.decoder.next(at: driver.now) == .needsInput)
    #expect(driver.decoder.payloadCount == 0)
    #expect(driver.payload().isEmpty)
  }

  @Test("a paste at the limit is a paste; one byte more is pasteTooLong")
  func pasteLimit() throws {
    var configuration = KeyDecoder.Configuration()
    configuration.maximumPasteCount = 5
    #expect(
      try decode(Array((csi + "200~hello" + csi + "201~").utf8), configuration: configuration) == [
        .paste("hello")
      ])
    #expect(
      try decode(Array((csi + "200~hello!" + csi + "201~a").utf8), configuration: configuration)
        == [.event(.pasteTooLong), .text("a")])
  }

  @Test("a paste over many reads, over the limit, never grows the payload past it")
  func longPasteIsDropped() throws {
    var configuration = KeyDecoder.Configuration()
    configuration.maximumPasteCount = 64
    var driver = try DecoderDriver(configuration: configuration)
    try driver.receive(Array((csi + "200~").utf8))
    for _ in 0..<100 {
      try driver.receive(Array(repeating: 0x61, count: 10))
      #expect(try driver.drain() == ([], .needsInput))
      #expect(driver.payload().count <= 64)
    }
    try driver.receive(Array((csi + "201~").utf8))
    #expect(try driver.drain().decoded == [.event(.pasteTooLong)])
  }

  @Test("reset wipes pending input and a paste in progress")
  func reset() throws {
    var driver = try DecoderDriver()
    try driver.receive(Array((csi + "200~secret").utf8))
    _ = try driver.drain()
    driver.decoder.reset()
    #expect(driver.decoder.pendingInputCount == 0)
    try driver.receive(Array("x".utf8))
    #expect(try driver.drain().decoded == [.text("x")])
  }
}

@Suite("An unknown sequence comes with its bytes, for a host that knows them")
struct UnknownSequenceBytesTests {
  @Test(
    "the sequence's bytes, whole; none for one too long to keep",
    arguments: [
      (esc + "]0;title\u{07}", true), (csi + "1 q", true), (csi + "?1;2c" + "x", false),
    ])
  func bytes(_ input: String, whole: Bool) throws {
    var driver = try DecoderDriver()
    try driver.receive(Array(input.utf8))
    let step = try driver.decoder.next(at: driver.now)
    if whole {
      #expect(step == .event(.unknownSequence))
      #expect(driver.payload() == Array(input.utf8))
    } else {
      // Control: a sequence the decoder names comes with no bytes.
      #expect(step == .event(.deviceAttributes))
      #expect(driver.payload().isEmpty)
    }
  }

  @Test("an unknown sequence in the prompt's window is lent from the input")
  func inWindow() throws {
    var driver = try DecoderDriver()
    var seen: [UInt8] = []
    let sequence = Array((esc + "]52;c;?\u{1B}\\").utf8)
    _ = try driver.decoder.receive(
      atMost: sequence.count,
      receivingWith: { spare in
        for (offset, byte) in sequence.enumerated() { spare[offset] = byte }
        return sequence.count
      }, at: driver.now,
      handling: { event, bytes in
        if event == .unknownSequence { seen = Array(bytes) }
        return true
      })
    #expect(seen == sequence)
  }

  @Test("one longer than the limit is dropped without its bytes")
  func overlong() throws {
    var configuration = KeyDecoder.Configuration()
    configuration.maximumSequenceCount = 16
    var driver = try DecoderDriver(configuration: configuration)
    let long = Array((csi + String(repeating: "1;", count: 20) + "q").utf8)
    try driver.receive(long)
    #expect(try driver.decoder.next(at: driver.now) == .event(.unknownSequence))
    #expect(driver.payload().isEmpty)
  }
}
