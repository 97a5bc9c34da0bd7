import FuzzSupport
import SecretFieldTerminal
import SecureMemory

// The key decoder: the fuzzer's bytes (after two bytes that choose how the
// stream is cut into reads) arrive as a terminal's input, in reads of 1 to 16
// bytes, with no time passing until the end, when the escape timeout is let
// run out. Each event is held against the bytes it consumed, as
// ECMA48Tokenizer classes them:
//
// - a text event's bytes are exactly the text bytes it consumed, in order (or,
//   when it consumed none, it came from a kitty `CSI ... u` key), valid UTF-8
//   without a control character;
// - any other event consumed no text byte, so no text is lost, and a paste's
//   bytes are exactly the paste content it consumed;
// - the decoder never keeps more than its limit of an unfinished sequence,
//   nor more than the paste limit of a paste.
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
  let stream = Array(input.rest())
  // Where each read ends: 1 to 16 bytes each, as the seed says.
  var readEnds: [Int] = []
  while (readEnds.last ?? 0) < stream.count {
    seed = seed &* 1_103_515_245 &+ 12345
    let offset = readEnds.last ?? 0
    readEnds.append(offset + min(stream.count - offset, 1 + Int(seed >> 16) % 16))
  }
  let classes = ECMA48Tokenizer.classify(
    stream, readEnds: readEnds, maximumSequenceCount: configuration.maximumSequenceCount)

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
