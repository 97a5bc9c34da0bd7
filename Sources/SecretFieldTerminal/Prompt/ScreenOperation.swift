/// One step of drawing the prompt: text to write, or a range of the field's
/// secure memory to write from where it lies.
///
/// A ``PromptRenderer`` produces them without reading a secret byte; the prompt
/// performs them with a ``ScreenWriter``, opening one read window on the field
/// for the revealed ranges.
package enum ScreenOperation: Sendable, Hashable {
  /// Text and escape sequences, never secret: the prompt, mask glyphs, hints.
  case text(String)
  /// The field's UTF-8 bytes in this range, revealed: written from secure
  /// memory with `write(2)`.
  case revealed(utf8Range: Range<Int>)
}

/// What one frame writes, gathered in buffers a prompt keeps from frame to
/// frame: the text and escape sequences as bytes, and where among them the
/// field's revealed ranges go.
///
/// Holds no secret byte: a revealed character is only its range in the field's
/// secure memory, written from there (``ScreenWriter/appendRevealed(_:)``).
/// Once the buffers have grown to a frame's size, drawing into them again
/// allocates nothing: ``PromptRenderer/draw(_:cellColumns:status:columns:rows:editedFrom:redrawingAll:into:)``
/// empties them keeping their capacity, and the escape sequences are written
/// as bytes (a column as decimal digits), never built as strings.
package struct ScreenOutput: Sendable {
  /// A revealed range of the field, written before ``ScreenOutput/text``'s
  /// byte at `offset`.
  package struct Reveal: Sendable, Hashable {
    /// Where in the text the range is written.
    package var offset: Int
    /// The field's UTF-8 bytes to write.
    package var utf8Range: Range<Int>
  }

  /// The text and escape sequences, never secret, in the order written.
  package private(set) var text: [UInt8] = []
  /// The revealed ranges, by increasing offset.
  package private(set) var reveals: [Reveal] = []

  /// Empty buffers.
  package init() {}

  /// True when the frame writes nothing.
  package var isEmpty: Bool { text.isEmpty && reveals.isEmpty }

  /// The frame as operations, adjacent texts joined: for a caller that
  /// performs them one by one, and for tests. Allocates.
  package var operations: [ScreenOperation] {
    var operations: [ScreenOperation] = []
    var start = 0
    for reveal in reveals {
      if reveal.offset > start {
        operations.append(.text(String(decoding: text[start..<reveal.offset], as: UTF8.self)))
      }
      operations.append(.revealed(utf8Range: reveal.utf8Range))
      start = reveal.offset
    }
    if text.count > start {
      operations.append(.text(String(decoding: text[start...], as: UTF8.self)))
    }
    return operations
  }

  /// Empties both buffers, keeping their capacity.
  mutating func removeAll() {
    text.removeAll(keepingCapacity: true)
    reveals.removeAll(keepingCapacity: true)
  }

  /// Appends `string`'s UTF-8: the prompt, a mask glyph, a status line, a
  /// control sequence (never a secret). Copies from the string's storage.
  mutating func append(_ string: String) {
    text.append(contentsOf: string.utf8)
  }

  /// Appends `count` in decimal, without building a string.
  mutating func appendDecimal(_ count: Int) {
    precondition(count >= 0, "ScreenOutput.appendDecimal: \(count) is negative")
    var divisor = 1
    while divisor <= count / 10 { divisor *= 10 }
    var rest = count
    while divisor > 0 {
      text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// `CSI n G` (``ControlSequence/cursorToColumn(_:)``), as bytes.
  mutating func appendCursorToColumn(_ column: Int) {
    append(ControlSequence.controlSequenceIntroducer)
    appendDecimal(max(0, column) + 1)
    text.append(UInt8(ascii: "G"))
  }

  /// `CSI n A` (``ControlSequence/cursorUp(_:)``), as bytes: nothing below 1.
  mutating func appendCursorUp(_ count: Int) {
    guard count > 0 else { return }
    append(ControlSequence.controlSequenceIntroducer)
    appendDecimal(count)
    text.append(UInt8(ascii: "A"))
  }

  /// Lends ``text``'s bytes, which are never secret.
  func withUnsafeText<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    text.withUnsafeBytes(body)
  }

  /// Notes that the field's bytes in `range` are written here, after the text
  /// gathered so far.
  mutating func appendRevealed(_ range: Range<Int>) {
    reveals.append(Reveal(offset: text.count, utf8Range: range))
  }
}
