import SecretField
@_spi(Testing) import SecretFieldTerminal
import SecureMemory
import TestSupport
import Testing

/// The prompt's path through the decoder: bytes land in the open landing area
/// and every event is handled there, text lent from where it arrived.
/// It must decode exactly as ``KeyDecoder/next(at:)`` does, and a typed key
/// must cost the protection changes it claims.
@Suite("KeyDecoder decodes where the bytes arrived")
struct KeyDecoderWindowTests {
  @Test("the same events as next(at:), in one read", arguments: allCases + hostileCases)
  func sameEvents(_ testCase: DecoderCase) throws {
    try testCase.expectDecoded(.whole, through: .window)
  }

  @Test(
    "the same events at every split into two reads (below 64)",
    arguments: allCases + hostileCases.prefix(8))
  func everySplit(_ testCase: DecoderCase) throws {
    try testCase.expectDecoded(.everyTwoWaySplit(below: 64), through: .window)
  }

  @Test("the same events one byte per read", arguments: allCases)
  func bytewise(_ testCase: DecoderCase) throws {
    try testCase.expectDecoded(.bytewise, through: .window)
  }

  @Test("a handler that stops leaves the rest for the next call")
  func stopping() throws {
    var decoder = try KeyDecoder()
    var seen: [KeyEvent] = []
    let input = Array("a\r".utf8)
    let step = try decoder.receive(
      atMost: input.count,
      receivingWith: { spare in
        for (offset, byte) in input.enumerated() { spare[offset] = byte }
        return input.count
      }, at: .now
    ) { event, _ in
      seen.append(event)
      return false
    }
    #expect(step == .some(nil))
    #expect(seen == [.text])
    #expect(decoder.pendingInputCount == 1)
    #expect(try decoder.next(at: .now) == .event(.submit))
  }

  @Test(
    "a key typed into a field sharing the decoder's region: one protection pair, at the end or in the middle",
    arguments: [4, 2])
  func keyTypedIntoASharedField(caret: Int) async {
    await #expect(processExitsWith: .success) { [caret] in
      let region = try! SharedSecureRegion(
        holding: [SecretFieldState.reservedByteCount(for: .default), KeyDecoder.inputCapacity])
      var field = try! SecretFieldState(sharing: region)
      var decoder = try! KeyDecoder(sharing: region)
      for key: Character in ["a", "b", "c", "d"] {
        _ = try! KeyDecoderWindowTests.type(key, into: &field, through: &decoder)
      }
      field.select(caret..<caret)
      let before = ProtectionChangeCount.current
      let step = try! KeyDecoderWindowTests.type("x", into: &field, through: &decoder)
      let changes = ProtectionChangeCount.current - before
      #expect(step == .some(.some(.needsInput)))
      let text = field.withSecret { String(decoding: $0, as: UTF8.self) }
      #expect(text == (caret == 4 ? "abcdx" : "abxcd"))
      // The key lands in the open landing area and is decoded and handed
      // over there; the field's edit is the region's one pair.
      #expect(changes == 2)
      #expect(decoder.pendingInputCount == 0)
    }
  }

  @Test("the prompt's region: the field's default room and the input fill one whole page")
  func promptRegionFillsWholePages() throws {
    let configuration = PromptConfiguration()
    let region = try PromptField.makeSharedRegion(configuration: configuration)
    let editor = try PromptField(
      configuration: configuration, locale: TerminalLocale(environment: ["LANG": "C.UTF-8"]),
      sharing: region)
    let decoder = try KeyDecoder(sharing: region)
    // The text gets what one page leaves beside the input (and moves out of
    // the region past 3,792 bytes); 8 KiB would have spilled into a third.
    #expect(region.remainingCapacity == 0)
    #expect(SharedSecureRegion.largestCapacity(besides: [256], inPages: 1) == 3792)
    #expect(SharedSecureRegion.bytesPastWholePages(holding: [3792, 256]) == 0)
    #expect(SharedSecureRegion.bytesPastWholePages(holding: [8192, 256]) == 304)
    let counts = (editor.field.utf8Count, decoder.pendingInputCount)
    #expect(counts == (0, 0))
  }

  @Test("a field with a buffer of its own: one pair too, the field's own")
  func keyTypedIntoALoneField() async {
    await #expect(processExitsWith: .success) {
      var decoder = try! KeyDecoder(configuration: .sodium)
      var field = try! SecretFieldState(storage: .sodium)
      let before = ProtectionChangeCount.current
      let step = try! KeyDecoderWindowTests.type("x", into: &field, through: &decoder)
      let changes = ProtectionChangeCount.current - before
      #expect(step == .some(.some(.needsInput)))
      #expect(field.count == 1)
      #expect(changes == 2)
    }
  }

  /// Types `key` (one byte) into `field` as the prompt does: it lands in the
  /// decoder's landing area and the field takes it from there.
  static func type(
    _ key: Character, into field: inout SecretFieldState, through decoder: inout KeyDecoder
  ) throws -> KeyDecoder.Step?? {
    try decoder.receive(
      atMost: 1,
      receivingWith: { spare in
        spare[0] = key.asciiValue!
        return 1
      }, at: .now
    ) { event, bytes in
      #expect(event == .text)
      try! field.insert(bytes)
      return true
    }
  }

  @Test("a control key makes no protection change: it is decoded where it landed")
  func controlKey() async {
    await #expect(processExitsWith: .success) {
      var decoder = try! KeyDecoder(configuration: .sodium)
      var events: [KeyEvent] = []
      let before = ProtectionChangeCount.current
      _ = try! decoder.receive(
        atMost: 3,
        receivingWith: { spare in
          spare[0] = 0x1B
          spare[1] = UInt8(ascii: "[")
          spare[2] = UInt8(ascii: "D")
          return 3
        }, at: .now
      ) { event, _ in
        events.append(event)
        return true
      }
      #expect(ProtectionChangeCount.current - before == 0)
      #expect(events == [.moveLeft])
    }
  }

  @Test("control: decoding through next(at:) and withPayload makes more changes")
  func legacyPathCostsMore() async {
    await #expect(processExitsWith: .success) {
      var decoder = try! KeyDecoder(configuration: .sodium)
      let before = ProtectionChangeCount.current
      decoder.receive { input in
        try! input.append(count: 1) { $0[0] = UInt8(ascii: "x") }
      }
      #expect(try! decoder.next(at: .now) == .event(.text))
      let count = decoder.withPayload { $0.count }
      #expect(count == 1)
      // The arrival, the scan with its removal, the copy into the payload, and
      // the payload's loan: the count the seam must be able to tell apart.
      #expect(ProtectionChangeCount.current - before == 8)
    }
  }

  @Test("typed text: one copy while the handler has it, none after")
  func residue() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      var decoder = try! KeyDecoder(configuration: .sodium)
      var lent: ResidueScanner.Report?
      var received = 0
      let step = try! decoder.receive(
        atMost: marker.count,
        receivingWith: { spare in
          for index in 0..<marker.count { spare[index] = marker.masked[index] }
          marker.unmask(in: UnsafeMutableRawBufferPointer(rebasing: spare[0..<marker.count]))
          return marker.count
        }, at: .now
      ) { event, bytes in
        #expect(event == .text)
        received = bytes.count
        lent = try! ResidueScanner().scan(for: marker)
        return true
      }
      let after = try! ResidueScanner().scan(for: marker)
      #expect(step == .some(.some(.needsInput)))
      #expect(received == marker.count)
      #expect(lent?.copies == 1, "\(String(describing: lent))")
      #expect(after.copies == 0, "\(after)")
    }
  }
}
