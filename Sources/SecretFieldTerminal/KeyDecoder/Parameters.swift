/// The parameter bytes of a control sequence, read in place: fields separated by
/// `;`, subfields by `:`, decimal numbers, an optional private marker
/// (`<`, `=`, `>`, `?`) in front.
///
/// Reads the bytes where they are (inside the decoder's secure input) and
/// allocates nothing.
struct Parameters {
  let bytes: UnsafeRawBufferPointer
  let range: Range<Int>

  init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
    self.bytes = bytes
    self.range = range
  }

  var isEmpty: Bool { range.isEmpty }

  /// The private marker in front, if any.
  var privateMarker: UInt8? {
    guard let first = range.first, (0x3C...0x3F).contains(bytes[first]) else { return nil }
    return bytes[first]
  }

  var hasPrivateMarker: Bool { privateMarker != nil }

  /// The parameter bytes after the private marker.
  private var body: Range<Int> {
    privateMarker == nil ? range : (range.lowerBound + 1)..<range.upperBound
  }

  /// How many `;`-separated fields there are (one for empty parameters).
  var count: Int {
    var fields = 1
    for offset in body where bytes[offset] == UInt8(ascii: ";") { fields += 1 }
    return fields
  }

  /// True when every byte after the private marker is a digit, `;` or `:`
  /// and every number fits a code point: what the decoder requires before it
  /// reads any value, so an overflowing modifier (`CSI 97;99999999999u`) drops
  /// the key instead of reading as no modifier.
  var isWellFormed: Bool {
    var value = 0
    for offset in body {
      let byte = bytes[offset]
      if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") {
        value = 0
        continue
      }
      guard (0x30...0x39).contains(byte) else { return false }
      value = value * 10 + Int(byte - 0x30)
      if value > 0x10FFFF { return false }
    }
    return true
  }

  /// The byte range of field `index`, or nil when there are fewer fields.
  func field(_ index: Int) -> Range<Int>? {
    piece(index, of: body, separatedBy: UInt8(ascii: ";"))
  }

  /// The byte range of subfield `subindex` of `field`.
  func subfield(_ subindex: Int, of field: Range<Int>) -> Range<Int>? {
    piece(subindex, of: field, separatedBy: UInt8(ascii: ":"))
  }

  /// The byte range of piece `index` of `span`, split at each `separator`,
  /// or nil when there are fewer pieces.
  private func piece(_ index: Int, of span: Range<Int>, separatedBy separator: UInt8)
    -> Range<Int>?
  {
    var start = span.lowerBound
    var current = 0
    for offset in span where bytes[offset] == separator {
      if current == index { return start..<offset }
      current += 1
      start = offset + 1
    }
    return current == index ? start..<span.upperBound : nil
  }

  /// The decimal number in `range`; nil when it is empty, not all digits, or
  /// larger than a code point can be.
  func number(in range: Range<Int>) -> Int? {
    guard !range.isEmpty else { return nil }
    var value = 0
    for offset in range {
      let byte = bytes[offset]
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
      if value > 0x10FFFF { return nil }
    }
    return value
  }

  /// The first subfield of field `index` as a number.
  func value(_ index: Int) -> Int? {
    guard let field = field(index), let first = subfield(0, of: field) else { return nil }
    return number(in: first)
  }

  /// The second subfield of field `index` as a number (the kitty protocol's
  /// event type, beside the modifiers).
  func secondValue(_ index: Int) -> Int? {
    guard let field = field(index), let second = subfield(1, of: field) else { return nil }
    return number(in: second)
  }

  /// The fields of a kitty key event, `code[:alternates] ; modifiers[:event] ;
  /// text`, or nil when the code is missing or malformed.
  func kittyKey() -> KittyKey? {
    guard !hasPrivateMarker, let code = value(0) else { return nil }
    let text = field(2).flatMap { $0.isEmpty ? nil : $0 }
    return KittyKey(
      code: code, modifiers: value(1) ?? 1, eventType: secondValue(1) ?? 1, text: text)
  }
}
