/// The kitty protocol's text field: decimal code points separated by `:`.
enum KittyText {
  /// True for a Unicode scalar that is text: no C0 or C1 control, no DEL, no
  /// surrogate, at most U+10FFFF.
  static func isTextScalar(_ value: Int) -> Bool {
    value >= 0x20 && value != 0x7F && !(0x80...0x9F).contains(value)
      && !(0xD800...0xDFFF).contains(value) && value <= 0x10FFFF
  }

  static func utf8Count(_ value: Int) -> Int {
    value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
  }

  /// Calls `body` with each code point of the field, in order; false (stopping)
  /// when a code point is missing, malformed or not text.
  static func forEachCodePoint(
    in range: Range<Int>, of bytes: UnsafeRawBufferPointer, _ body: (Int) -> Void
  ) -> Bool {
    var value = 0
    var digits = 0
    var offset = range.lowerBound
    while true {
      let atEnd = offset == range.upperBound
      let byte = atEnd ? UInt8(ascii: ":") : bytes[offset]
      if byte == UInt8(ascii: ":") {
        guard digits > 0, isTextScalar(value) else { return false }
        body(value)
        value = 0
        digits = 0
        if atEnd { return true }
      } else {
        guard (0x30...0x39).contains(byte), digits < 7 else { return false }
        value = value * 10 + Int(byte - 0x30)
        digits += 1
      }
      offset += 1
    }
  }

  /// The UTF-8 length of the field's text, or nil when it is not all text.
  static func utf8Count(codePointsIn range: Range<Int>, of bytes: UnsafeRawBufferPointer) -> Int? {
    var total = 0
    let valid = forEachCodePoint(in: range, of: bytes) { total += utf8Count($0) }
    return valid ? total : nil
  }

  /// Writes the field's text as UTF-8 into `destination`, which has exactly the
  /// room ``utf8Count(codePointsIn:of:)`` measured.
  static func encode(
    codePointsIn range: Range<Int>, of bytes: UnsafeRawBufferPointer,
    into destination: UnsafeMutableRawBufferPointer
  ) {
    var offset = 0
    _ = forEachCodePoint(in: range, of: bytes) { value in
      offset = encode(value, into: destination, at: offset)
    }
  }

  /// Writes one scalar as UTF-8 at `offset`; returns the offset after it.
  @discardableResult
  static func encode(_ value: Int, into destination: UnsafeMutableRawBufferPointer, at offset: Int)
    -> Int
  {
    switch utf8Count(value) {
    case 1:
      destination[offset] = UInt8(value)
    case 2:
      destination[offset] = UInt8(0xC0 | (value >> 6))
      destination[offset + 1] = UInt8(0x80 | (value & 0x3F))
    case 3:
      destination[offset] = UInt8(0xE0 | (value >> 12))
      destination[offset + 1] = UInt8(0x80 | ((value >> 6) & 0x3F))
      destination[offset + 2] = UInt8(0x80 | (value & 0x3F))
    default:
      destination[offset] = UInt8(0xF0 | (value >> 18))
      destination[offset + 1] = UInt8(0x80 | ((value >> 12) & 0x3F))
      destination[offset + 2] = UInt8(0x80 | ((value >> 6) & 0x3F))
      destination[offset + 3] = UInt8(0x80 | (value & 0x3F))
    }
    return offset + utf8Count(value)
  }
}
