/// What each byte of a terminal's input stream is, by ECMA-48's grammar: the
/// oracle the key decoder is checked against, written apart from it.
///
/// ECMA-48 (5th edition, 1991), sections 5.3 to 5.6 and 8.3: a control
/// sequence is CSI, parameter bytes 03/00–03/15, intermediate bytes
/// 02/00–02/15, and one final byte 04/00–07/14; a control string (OSC, DCS,
/// APC, PM, SOS) runs to ST; an escape sequence is ESC, intermediates 02/00–
/// 02/15, and a final 03/00–07/14; C1 controls are U+0080–U+009F, here in UTF-8.
/// What the decoder adds, mirrored here: DEC's parser runs a sequence with a
/// parameter byte after an intermediate on to its final byte; a byte outside a
/// sequence's classes ends it and starts anew; a string also ends at BEL or
/// C2 9C, and just before an ESC that does not start ST or any other C0
/// control (a key typed after Alt+], which aborts it); ESC and one character
/// is Alt+key; `CSI 200 ~` starts a bracketed
/// paste whose content runs, unparsed, to `ESC [ 2 0 1 ~`. At the end of the
/// stream an unfinished sequence or character is taken as it is. A CSI longer
/// than `maximumSequenceCount` bytes is over-long, however the reads cut it:
/// swallowed to its end as unknown, so it starts no paste and is no kitty key,
/// whatever it says.
struct ECMA48Tokenizer {
  /// What a byte is.
  enum Class: Equatable {
    /// Part of a printable character in the ground state: the only bytes that
    /// may come out as text, each of them exactly once, in order.
    case text
    /// Part of a control function, a sequence, or an invalid UTF-8 byte.
    case control
    /// Part of `CSI ... u`, which under the kitty protocol may stand for text.
    case kittyKey
    /// Inside a bracketed paste.
    case paste
  }

  /// The class of each byte of `stream`.
  ///
  /// - Parameter maximumSequenceCount: the decoder's limit on a sequence it
  ///   keeps.
  static func classify(_ stream: [UInt8], maximumSequenceCount: Int) -> [Class] {
    var classes = [Class](repeating: .control, count: stream.count)
    var tokenizer = ECMA48Tokenizer(stream: stream, maximumSequenceCount: maximumSequenceCount)
    tokenizer.run(into: &classes)
    return classes
  }

  let stream: [UInt8]
  let maximumSequenceCount: Int
  var index = 0

  mutating func run(into classes: inout [Class]) {
    while index < stream.count {
      let start = index
      let byte = stream[index]
      if byte == 0x1B {
        escape(into: &classes)
      } else if byte == 0xC2, index + 1 < stream.count, (0x80...0x9F).contains(stream[index + 1]) {
        c1(into: &classes)
      } else if byte < 0x20 || byte == 0x7F {
        index += 1
      } else if let length = scalarLength(at: index) {
        for offset in start..<(start + length) { classes[offset] = .text }
        index += length
      } else {
        index += max(1, invalidLength(at: index))
      }
      precondition(index > start)
    }
  }

  // MARK: UTF-8 (Unicode table 3-7)

  /// The length of the well-formed UTF-8 sequence at `offset`, or nil.
  func scalarLength(at offset: Int) -> Int? {
    let lead = stream[offset]
    if lead < 0x80 { return 1 }
    let (length, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0x00...0x00)
      }
    guard length > 0, offset + length <= stream.count else { return nil }
    for position in 1..<length {
      let allowed: ClosedRange<UInt8> = position == 1 ? second : 0x80...0xBF
      guard allowed.contains(stream[offset + position]) else { return nil }
    }
    return length
  }

  /// The length of the maximal ill-formed subpart at `offset` (or what is left
  /// of a sequence cut by the end of the stream).
  func invalidLength(at offset: Int) -> Int {
    let lead = stream[offset]
    let (length, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (1, 0x00...0x00)
      }
    var taken = 1
    while taken < length, offset + taken < stream.count {
      let allowed: ClosedRange<UInt8> = taken == 1 ? second : 0x80...0xBF
      guard allowed.contains(stream[offset + taken]) else { break }
      taken += 1
    }
    return taken
  }

  // MARK: Sequences

  /// From `ESC`.
  mutating func escape(into classes: inout [Class]) {
    guard index + 1 < stream.count else {
      index += 1
      return
    }
    let next = stream[index + 1]
    switch next {
    case UInt8(ascii: "["): controlSequence(from: index, parametersAt: index + 2, into: &classes)
    case UInt8(ascii: "O"): index = sequenceEnd(from: index + 2)
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"),
      UInt8(ascii: "X"):
      index = stringEnd(from: index + 2)
    case 0x1B: index += 1
    case 0x20...0x2F:
      var offset = index + 2
      while offset < stream.count, (0x20...0x2F).contains(stream[offset]) { offset += 1 }
      if offset < stream.count, (0x30...0x7E).contains(stream[offset]) { offset += 1 }
      index = offset
    case 0x80...:
      let character = index + 1
      index = character + (scalarLength(at: character) ?? invalidLength(at: character))
    default: index += 2
    }
  }

  /// From a C1 control in UTF-8 (`C2 80`–`C2 9F`).
  mutating func c1(into classes: inout [Class]) {
    switch stream[index + 1] {
    case 0x9B, 0x8F, 0x8E: index = sequenceEnd(from: index + 2)
    case 0x90, 0x98, 0x9D, 0x9E, 0x9F: index = stringEnd(from: index + 2)
    default: index += 2
    }
  }

  /// Where a CSI's (or SS3's) parameters, intermediates and final byte end.
  func sequenceEnd(from start: Int) -> Int {
    var offset = start
    while offset < stream.count, (0x20...0x3F).contains(stream[offset]) { offset += 1 }
    if offset < stream.count, (0x40...0x7E).contains(stream[offset]) { offset += 1 }
    return offset
  }

  /// Where a control string ends: after BEL, `ESC \` or `C2 9C`; before any
  /// other ESC or C0 control; or at the end.
  func stringEnd(from start: Int) -> Int {
    var offset = start
    while offset < stream.count {
      let byte = stream[offset]
      if byte == 0x07 { return offset + 1 }
      if byte == 0x1B {
        let isTerminator = offset + 1 < stream.count && stream[offset + 1] == UInt8(ascii: "\\")
        return isTerminator ? offset + 2 : offset
      }
      if byte < 0x20 { return offset }
      if byte == 0xC2 && offset + 1 < stream.count && stream[offset + 1] == 0x9C {
        return offset + 2
      }
      offset += 1
    }
    return offset
  }

  /// A CSI from `start`; marks `CSI ... u` as a kitty key and follows a paste.
  mutating func controlSequence(
    from start: Int, parametersAt first: Int, into classes: inout [Class]
  ) {
    let end = sequenceEnd(from: first)
    index = end
    guard end > first, (0x40...0x7E).contains(stream[end - 1]) else { return }
    // Over-long: longer than the decoder keeps, whether it arrived whole or
    // the decoder held the limit's worth of it at the end of some read.
    guard end - start <= maximumSequenceCount else { return }
    let parameters = Array(stream[first..<(end - 1)])
    let final = stream[end - 1]
    if final == UInt8(ascii: "u") {
      for offset in start..<end { classes[offset] = .kittyKey }
    } else if final == UInt8(ascii: "~"), Self.firstNumber(parameters) == 200 {
      paste(into: &classes)
    }
  }

  /// The first number of well-formed, unmarked parameters (digits, `;`, `:`,
  /// each number at most U+10FFFF), or nil.
  static func firstNumber(_ parameters: [UInt8]) -> Int? {
    var first: Int?
    var value = 0
    var digits = 0
    var isFirst = true
    for byte in parameters + [UInt8(ascii: ";")] {
      if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") {
        if isFirst { first = digits > 0 ? value : nil }
        isFirst = false
        value = 0
        digits = 0
        continue
      }
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
      digits += 1
      if value > 0x10FFFF { return nil }
    }
    return first
  }

  /// Paste content from `index` to the end marker, which is control.
  mutating func paste(into classes: inout [Class]) {
    let marker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
    var offset = index
    while offset < stream.count {
      if offset + marker.count <= stream.count
        && Array(stream[offset..<(offset + marker.count)]) == marker
      {
        for position in index..<offset { classes[position] = .paste }
        index = offset + marker.count
        return
      }
      offset += 1
    }
    for position in index..<stream.count { classes[position] = .paste }
    index = stream.count
  }
}
