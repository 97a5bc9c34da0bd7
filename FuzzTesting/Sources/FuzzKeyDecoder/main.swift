import FuzzSupport
@_spi(Testing) import SecretFieldTerminal
import SecureMemory

// The key decoder: the fuzzer's bytes (after two bytes that choose how the
// stream is cut into reads, and which path decodes it) arrive as a terminal's
// input, in reads of 1 to 16 bytes, with no time passing until the end, when
// the escape timeout is let run out. Every byte is classed by ECMA48Tokenizer
// (written for the target from ECMA-48, apart from the decoder).
//
// Three inputs in four go through the prompt's path: each read arrives with
// `receive(atMost:receivingWith:at:handling:)` (the `read(from:)` of the event
// loop without its descriptor) and every event is handled inside that window,
// text lent from the input where the read put it; `decode(at:handling:)` takes
// the escape timeouts, and, when the input's choice bit says so, the handler
// stops after each event and `decode(at:handling:)` goes on, as the event loop
// does after a key that ends the prompt. The position in the stream of each
// text byte is where its pointer is in the input's window. Checked:
//
// - a text event lent from the input holds only text bytes, and together such
//   events hold every text byte of the stream exactly once, in order; one lent
//   from elsewhere (the payload) is a kitty key's text; text is valid UTF-8
//   without a control character;
// - every other event comes with no bytes but a paste, and the pastes are the
//   stream's paste contents in order (empty ones, those over the limit and one
//   never ended aside);
// - the decoder never keeps more than its limit of an unfinished sequence.
//
// The fourth goes through `next(at:)`, which returns one event per call and
// copies text into the payload: each event is held against the bytes it
// consumed (the input's count before and after), as before:
//
// - a text event's bytes are exactly the text bytes it consumed, in order (or,
//   when it consumed none, it came from a kitty `CSI ... u` key), valid UTF-8
//   without a control character;
// - any other event consumed no text byte, so no text is lost, and a paste's
//   bytes are exactly the paste content it consumed;
// - the decoder never keeps more than its limit of an unfinished sequence,
//   nor more than the paste limit of a paste.
//
// Both paths, not one: the prompt uses only the window path, and the other is
// public; a run of random splits on each, checked against the same tokenizer,
// costs nothing more per input than one path, where decoding every input twice
// to compare the two would halve the rate.
//
// The limits are small (64 and 32 bytes) so that short inputs reach the
// over-long paths.

/// One decoder for every input (reset before each): its secure buffers cost
/// more to make than most inputs cost to decode.
final class DecoderBox {
  var decoder: KeyDecoder
  init(_ configuration: KeyDecoder.Configuration) {
    decoder = try! KeyDecoder(configuration: configuration)
  }
}

nonisolated(unsafe) var box: DecoderBox? = nil

/// libFuzzer's entry point: one input, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: start, count: count))
  var configuration = KeyDecoder.Configuration()
  configuration.maximumSequenceCount = 64
  configuration.maximumPasteCount = 32
  if box == nil { box = DecoderBox(configuration) }
  let box = box!
  box.decoder.reset()
  var seed = UInt32(input.byte()) << 8 | UInt32(input.byte())
  let usesWindows = seed & 3 != 0
  let stopsAfterEachEvent = seed & 4 != 0
  let stream = Array(input.rest())
  // Where each read ends: 1 to 16 bytes each, as the seed says.
  var readEnds: [Int] = []
  while (readEnds.last ?? 0) < stream.count {
    seed = seed &* 1_103_515_245 &+ 12345
    let offset = readEnds.last ?? 0
    readEnds.append(offset + min(stream.count - offset, 1 + Int(seed >> 16) % 16))
  }
  let classes = ECMA48Tokenizer.classify(
    stream, maximumSequenceCount: configuration.maximumSequenceCount)
  if usesWindows {
    decodeInWindows(
      stream, readEnds: readEnds, classes: classes, stopsAfterEachEvent: stopsAfterEachEvent,
      decoder: &box.decoder)
    return 0
  }

  let clock = ContinuousClock.now
  var received = 0
  var consumed = 0
  var spanStart = 0
  var lastWasCapsLock = false

  func check(_ event: KeyEvent, span: Range<Int>, payload: [UInt8]) {
    let textBytes = span.filter { classes[$0] == .text }.map { stream[$0] }
    // Built only when an invariant breaks: describing the stream for every
    // event was most of the target's time.
    func context() -> String { "event \(event) over \(span) of \(stream)" }
    switch event {
    case .text:
      if textBytes.isEmpty {
        require(span.contains { classes[$0] == .kittyKey }, "text from no text byte: \(context())")
      } else {
        require(payload == textBytes, "text \(payload), expected \(textBytes): \(context())")
      }
      require(isPrintable(payload), "text with a control or invalid byte: \(payload)")
    case .paste:
      require(textBytes.isEmpty, "text bytes in a paste's span: \(context())")
      let pasted = span.filter { classes[$0] == .paste }.map { stream[$0] }
      require(payload == pasted, "paste \(payload), expected \(pasted): \(context())")
    default:
      require(textBytes.isEmpty, "text bytes \(textBytes) lost: \(context())")
    }
  }

  func drain(at now: ContinuousClock.Instant) -> KeyDecoder.Step {
    while true {
      let step = try! box.decoder.next(at: now)
      let pending = box.decoder.pendingInputCount
      consumed = received - pending
      guard case .event(let event) = step else {
        require(pending < 64, "\(pending) bytes kept of an unfinished sequence")
        return step
      }
      if case .capsLock = event {
        lastWasCapsLock = true
        continue
      }
      let payload = box.decoder.withPayload { Array($0) }
      require(payload.count <= 32 || event != .paste, "a paste over the limit")
      check(event, span: spanStart..<consumed, payload: payload)
      spanStart = consumed
      lastWasCapsLock = false
    }
  }

  var offset = 0
  for end in readEnds {
    let chunk = stream[offset..<end]
    try! box.decoder.receive { buffer in try chunk.withUnsafeBytes { try buffer.append($0) } }
    received = end
    offset = end
    _ = drain(at: clock)
  }
  var now = clock
  while case .needsInputBefore(let deadline) = drain(at: now) { now = deadline }
  // Bytes consumed without an event after the last one (a paste never ended, a
  // sequence swallowed) held no text either.
  let trailing = (spanStart..<consumed).filter { classes[$0] == .text }
  require(trailing.isEmpty, "text bytes at \(trailing) consumed without an event: \(stream)")
  _ = lastWasCapsLock
  return 0
}

/// Valid UTF-8 with no C0, DEL or C1 control.
func isPrintable(_ bytes: [UInt8]) -> Bool {
  guard let text = String(validating: bytes, as: UTF8.self) else { return false }
  return !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

/// The prompt's path over `stream`, cut at `readEnds`, checked as described
/// at the top.
func decodeInWindows(
  _ stream: [UInt8], readEnds: [Int], classes: [ECMA48Tokenizer.Class],
  stopsAfterEachEvent: Bool, decoder: inout KeyDecoder
) {
  let clock = ContinuousClock.now
  // Where the input's window starts, as the last read's spare room showed it
  // (the input moves only when it grows, before a read's window opens), and
  // the stream position of its first byte and how many it holds.
  var windowBase: UnsafeRawPointer?
  var windowStart = 0
  var windowCount = 0
  var received = 0
  var textPositions: [Int] = []
  var pastes: [[UInt8]] = []

  func handle(_ event: KeyEvent, _ bytes: UnsafeRawBufferPointer) -> Bool {
    switch event {
    case .capsLock: return true
    case .text:
      require(isPrintable(Array(bytes)), "text with a control or invalid byte: \(Array(bytes))")
      if let base = windowBase, let start = bytes.baseAddress,
        start >= base, start < base + windowCount
      {
        let first = windowStart + (start - base)
        for position in first..<(first + bytes.count) {
          require(
            classes[position] == .text,
            "text byte at \(position) is \(classes[position]): \(stream)")
          textPositions.append(position)
        }
      } else {
        require(classes.contains(.kittyKey), "text from the payload with no kitty key: \(stream)")
      }
    case .paste:
      require(bytes.count <= 32, "a paste over the limit")
      pastes.append(Array(bytes))
    case .unknownSequence where !bytes.isEmpty:
      // A sequence's own bytes, lent from the input where it arrived, and no
      // longer than the limit: never a byte that is text.
      require(bytes.count <= 64, "an unknown sequence of \(bytes.count) bytes: \(stream)")
      guard let base = windowBase, let start = bytes.baseAddress,
        start >= base, start + bytes.count <= base + windowCount
      else {
        require(false, "an unknown sequence's bytes not from the input: \(stream)")
        return true
      }
      let first = windowStart + (start - base)
      for position in first..<(first + bytes.count) {
        require(
          classes[position] != .text,
          "unknown sequence byte at \(position) is text: \(stream)")
      }
    default:
      require(bytes.isEmpty, "\(event) came with \(bytes.count) bytes: \(stream)")
    }
    return !stopsAfterEachEvent
  }

  /// `decode(at:handling:)` until the handler lets it finish.
  func decode(at now: ContinuousClock.Instant) -> KeyDecoder.Step {
    while true {
      windowCount = decoder.pendingInputCount
      windowStart = received - windowCount
      let step = try! decoder.decode(at: now, handling: handle)
      require(decoder.pendingInputCount < 64, "\(decoder.pendingInputCount) bytes kept")
      if let step { return step }
    }
  }

  var offset = 0
  var last: KeyDecoder.Step = .needsInput
  for end in readEnds {
    let chunk = stream[offset..<end]
    let pending = decoder.pendingInputCount
    windowStart = offset - pending
    windowCount = pending + chunk.count
    let step = try! decoder.receive(
      atMost: chunk.count,
      receivingWith: { spare in
        windowBase = UnsafeRawPointer(spare.baseAddress!) - pending
        chunk.withUnsafeBytes { spare.copyMemory(from: $0) }
        return chunk.count
      }, at: clock, handling: handle)
    received = end
    offset = end
    require(decoder.pendingInputCount < 64, "\(decoder.pendingInputCount) bytes kept")
    switch step {
    case .some(.some(let step)): last = step
    case .some(.none): last = decode(at: clock)
    case .none: require(false, "a read of \(chunk.count) bytes received nothing")
    }
  }
  var now = clock
  while case .needsInputBefore(let deadline) = last {
    now = deadline
    last = decode(at: now)
  }

  let expectedText = classes.indices.filter { classes[$0] == .text }
  require(
    textPositions == expectedText,
    "text came from \(textPositions), the text bytes are at \(expectedText): \(stream)")
  // The paste contents, each a run of paste bytes; one that runs to the end
  // of the stream never ended, and one over the limit is pasteTooLong.
  var runs: [[UInt8]] = []
  var position = 0
  while position < stream.count {
    guard classes[position] == .paste else {
      position += 1
      continue
    }
    let start = position
    while position < stream.count, classes[position] == .paste { position += 1 }
    if position < stream.count { runs.append(Array(stream[start..<position])) }
  }
  let expectedPastes = runs.filter { $0.count <= 32 }
  let nonEmptyPastes = pastes.filter { !$0.isEmpty }
  require(
    nonEmptyPastes == expectedPastes,
    "pastes \(nonEmptyPastes), expected \(expectedPastes): \(stream)")
}
