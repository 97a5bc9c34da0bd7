/// Decoding of UTF-8 that lives in secure memory, one scalar at a time, with no
/// `String` in between.
///
/// Every function here computes on secret bytes: callers reach them through an
/// `@inline(never)` worker and call `wipeStack()` when it returns.
enum UTF8Scalars {
  /// Decodes the scalar at `offset` of bytes already known to be valid UTF-8.
  @inline(__always)
  static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (Unicode.Scalar, Int) {
    let lead = UInt32(bytes[offset])
    let value: UInt32
    let length: Int
    if lead < 0x80 {
      return (Unicode.Scalar(UInt8(truncatingIfNeeded: lead)), 1)
    } else if lead < 0xE0 {
      value = (lead & 0x1F) << 6 | continuation(bytes, offset + 1)
      length = 2
    } else if lead < 0xF0 {
      value =
        (lead & 0x0F) << 12 | continuation(bytes, offset + 1) << 6
        | continuation(bytes, offset + 2)
      length = 3
    } else {
      value =
        (lead & 0x07) << 18 | continuation(bytes, offset + 1) << 12
        | continuation(bytes, offset + 2) << 6 | continuation(bytes, offset + 3)
      length = 4
    }
    return (Unicode.Scalar(value).unsafelyUnwrapped, length)
  }

  @inline(__always)
  private static func continuation(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) & 0x3F
  }

  /// What is wrong with text offered for insertion, if anything.
  enum Problem {
    case invalidUTF8
    case controlCharacter
  }

  /// The verdict on text offered for insertion.
  struct Inspection {
    var problem: Problem?
    /// How many grapheme clusters the text forms on its own, counted up to 2.
    var clusterCount: Int
    /// True when every byte is printable ASCII (0x20 to 0x7E).
    var isPrintableASCII = false
  }

  /// Checks that `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no
  /// surrogates, nothing past U+10FFFF, nothing truncated) holding no control
  /// character (C0, DEL, C1), and counts the clusters they form alone.
  @inline(never)
  static func inspect(_ bytes: UnsafeRawBufferPointer) -> Inspection {
    var recognizer = Unicode._CharacterRecognizer()
    var clusters = 0
    var offset = 0
    var isPrintableASCII = true
    while offset < bytes.count {
      guard let length = validSequenceLength(bytes, at: offset) else {
        return Inspection(problem: .invalidUTF8, clusterCount: 0)
      }
      let (scalar, _) = decode(bytes, at: offset)
      if isControl(scalar) { return Inspection(problem: .controlCharacter, clusterCount: 0) }
      if scalar.value > 0x7E { isPrintableASCII = false }
      // Two is all a caller asks; past it, skip the breaking (most of a paste's cost).
      if clusters < 2 && recognizer.hasBreak(before: scalar) { clusters += 1 }
      offset += length
    }
    return Inspection(problem: nil, clusterCount: clusters, isPrintableASCII: isPrintableASCII)
  }

  /// C0 controls, DEL and C1 controls: none belongs in a password typed or pasted.
  @inline(__always)
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// The length of the well-formed sequence at `offset`, or nil.
  @inline(__always)
  private static func validSequenceLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
    let lead = bytes[offset]
    // Table 3-7 of the Unicode Standard: how long the sequence is and the
    // range its second byte must fall in; every later byte is 80...BF.
    let length: Int
    let second: ClosedRange<UInt8>
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
    case 0xE0: (length, second) = (3, 0xA0...0xBF)
    case 0xED: (length, second) = (3, 0x80...0x9F)
    case 0xE1...0xEF: (length, second) = (3, 0x80...0xBF)
    case 0xF0: (length, second) = (4, 0x90...0xBF)
    case 0xF4: (length, second) = (4, 0x80...0x8F)
    case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
    default: return nil
    }
    guard bytes.count - offset >= length, second.contains(bytes[offset + 1]) else { return nil }
    for index in offset + 2..<offset + length where !(0x80...0xBF).contains(bytes[index]) {
      return nil
    }
    return length
  }
}
