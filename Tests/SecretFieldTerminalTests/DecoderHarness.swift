@_spi(Testing) import SecretFieldTerminal
import SecureMemory
import Testing

/// What a decoder produced, with the payload copied out: test oracles only.
enum Decoded: Equatable, CustomStringConvertible {
  case event(KeyEvent)
  case text([UInt8])
  case paste([UInt8])

  static func text(_ string: String) -> Decoded { .text(Array(string.utf8)) }
  static func paste(_ string: String) -> Decoded { .paste(Array(string.utf8)) }

  var description: String {
    switch self {
    case .event(let event): "\(event)"
    case .text(let bytes): "text(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
    case .paste(let bytes): "paste(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
    }
  }
}

/// Feeds bytes to a decoder in chunks, with a clock the test moves, and
/// collects what comes out.
struct DecoderDriver: ~Copyable {
  var decoder: KeyDecoder
  let start = ContinuousClock.now
  var now: ContinuousClock.Instant

  init(configuration: KeyDecoder.Configuration = KeyDecoder.Configuration()) throws {
    decoder = try KeyDecoder(configuration: configuration)
    now = start
  }

  /// Appends `bytes` to the decoder's input, as one read would.
  mutating func receive(_ bytes: [UInt8]) throws {
    try decoder.receive { buffer in try bytes.withUnsafeBytes { try buffer.append($0) } }
  }

  /// Decodes until the decoder needs input; returns the events and the last step.
  mutating func drain() throws -> (decoded: [Decoded], last: KeyDecoder.Step) {
    var decoded: [Decoded] = []
    while true {
      let step = try decoder.next(at: now)
      guard case .event(let event) = step else { return (decoded, step) }
      switch event {
      case .text: decoded.append(.text(payload()))
      case .paste: decoded.append(.paste(payload()))
      default: decoded.append(.event(event))
      }
    }
  }

  func payload() -> [UInt8] { decoder.withPayload { Array($0) } }

  /// Feeds each chunk as one read (no time passes between them), then lets the
  /// escape timeout pass if the decoder is waiting.
  mutating func decode(chunks: [[UInt8]]) throws -> [Decoded] {
    var all: [Decoded] = []
    for chunk in chunks {
      try receive(chunk)
      all += try drain().decoded
    }
    let (decoded, last) = try drain()
    all += decoded
    if case .needsInputBefore(let deadline) = last {
      now = deadline
      all += try drain().decoded
    }
    return all
  }
}

/// Decodes `bytes` arriving in one read.
func decode(
  _ bytes: [UInt8], configuration: KeyDecoder.Configuration = KeyDecoder.Configuration()
) throws -> [Decoded] {
  var driver = try DecoderDriver(configuration: configuration)
  return try driver.decode(chunks: [bytes])
}

/// Adjacent text events merged, and adjacent invalid-text events: what a split
/// into several reads may not change. (A run of bad bytes split across reads may
/// ring the bell twice; that is all.)
func mergingText(_ decoded: [Decoded]) -> [Decoded] {
  var merged: [Decoded] = []
  for item in decoded {
    if case .text(let more) = item, case .text(let before)? = merged.last {
      merged[merged.count - 1] = .text(before + more)
    } else if item == .event(.invalidText), merged.last == .event(.invalidText) {
      continue
    } else {
      merged.append(item)
    }
  }
  return merged
}

/// Feeds `start`, which must leave the decoder waiting, lets the escape
/// timeout pass (`start` is then one unknown sequence), feeds `rest` and
/// returns what it decodes to.
func decodeAfterTimeout(
  cutting start: String, then rest: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [Decoded] {
  var driver = try DecoderDriver()
  try driver.receive(Array(start.utf8))
  let waiting = try driver.drain().last
  guard case .needsInputBefore(let deadline) = waiting else {
    Issue.record(
      "\(start.debugDescription) should wait, got \(String(describing: waiting))",
      sourceLocation: sourceLocation)
    return []
  }
  driver.now = deadline
  #expect(try driver.drain().decoded == [key(.unknownSequence)], sourceLocation: sourceLocation)
  try driver.receive(Array(rest.utf8))
  return try driver.drain().decoded
}

let esc = "\u{1B}"
let csi = "\u{1B}["

extension DecoderDriver {
  /// Feeds each chunk as the prompt's event loop does: the bytes arrive in the
  /// decoder's input and every event is handled in that same window
  /// (`receive(atMost:receivingWith:at:handling:)`), text lent from the input
  /// itself; then lets the escape timeout pass (`decode(at:handling:)`) if the
  /// decoder is waiting.
  mutating func decodeInWindows(chunks: [[UInt8]]) throws -> [Decoded] {
    var all: [Decoded] = []
    func collect(_ event: KeyEvent, _ bytes: UnsafeRawBufferPointer) -> Bool {
      switch event {
      case .text: all.append(.text(Array(bytes)))
      case .paste: all.append(.paste(Array(bytes)))
      case .unknownSequence:
        // Its bytes, when it came whole: a sequence, never text.
        #expect(bytes.isEmpty || bytes[0] < 0x20 || bytes[0] == 0xC2 || bytes[0] == 0x7F)
        all.append(.event(event))
      default:
        #expect(bytes.isEmpty, "\(event) came with bytes")
        all.append(.event(event))
      }
      return true
    }
    var last: KeyDecoder.Step = .needsInput
    for chunk in chunks where !chunk.isEmpty {
      let step = try decoder.receive(
        atMost: chunk.count,
        receivingWith: { spare in
          for (offset, byte) in chunk.enumerated() { spare[offset] = byte }
          return chunk.count
        }, at: now, handling: collect)
      last = try #require(step ?? nil)
    }
    if case .needsInputBefore(let deadline) = last {
      now = deadline
      _ = try decoder.decode(at: now, handling: collect)
    }
    return all
  }
}

extension KeyDecoder.Configuration {
  /// The defaults, with the decoder's buffers in sodium memory: what the
  /// residue scans read (secret memory they could not) and the protection
  /// counts count (a sealed buffer's windows change none).
  static var sodium: KeyDecoder.Configuration {
    var configuration = KeyDecoder.Configuration()
    configuration.storage = .sodium
    return configuration
  }
}

/// The decoder's two ways in: ``KeyDecoder/next(at:)`` after a read, or the
/// prompt's window, where each event is handled where its bytes arrived.
enum DecoderPath: Sendable, CustomTestStringConvertible {
  case next
  case window

  var testDescription: String { self == .next ? "through next(at:)" : "in the prompt's window" }
}

/// How a test cuts a case's input into reads.
enum Reads: Sendable, Equatable, CustomTestStringConvertible {
  /// One read: the events must be exactly the case's.
  case whole
  /// One byte a read.
  case bytewise
  /// Reads of `count` bytes, as the prompt reads.
  case ofSize(Int)
  /// Each cut into two reads at 1, 2, … below `bound` (and below the input's end).
  case everyTwoWaySplit(below: Int)
  /// The cuts a test chose, each a list of reads.
  case chosen([[[UInt8]]])

  var testDescription: String {
    switch self {
    case .whole: "in one read"
    case .bytewise: "one byte a read"
    case .ofSize(let count): "in reads of \(count) bytes"
    case .everyTwoWaySplit(let bound): "at every split into two reads below \(bound)"
    case .chosen(let cuts): "in \(cuts.count) chosen cuts"
    }
  }

  /// The cuts of `input`: each the list of reads one decoder is fed.
  func cuts(of input: [UInt8]) -> [[[UInt8]]] {
    switch self {
    case .whole: [[input]]
    case .bytewise: [input.map { [$0] }]
    case .ofSize(let count):
      [
        stride(from: 0, to: input.count, by: count).map {
          Array(input[$0..<min($0 + count, input.count)])
        }
      ]
    case .everyTwoWaySplit(let bound):
      (1..<max(1, min(input.count, bound))).map { [Array(input[..<$0]), Array(input[$0...])] }
    case .chosen(let cuts): cuts
    }
  }
}

extension DecoderCase {
  /// Feeds the input to a fresh decoder for each cut `reads` makes, on `path`,
  /// and expects the case's events: exactly in one read, with adjacent text
  /// merged when the reads may split it.
  func expectDecoded(
    _ reads: Reads, through path: DecoderPath = .next,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for (index, cut) in reads.cuts(of: input).enumerated() {
      var driver = try DecoderDriver()
      let decoded =
        switch path {
        case .next: try driver.decode(chunks: cut)
        case .window: try driver.decodeInWindows(chunks: cut)
        }
      if reads == .whole {
        #expect(decoded == expected, sourceLocation: sourceLocation)
      } else {
        #expect(
          mergingText(decoded) == mergingText(expected),
          "\(reads.testDescription), cut \(index): \(cut.map(\.count))",
          sourceLocation: sourceLocation)
      }
    }
  }
}
