/// One step of drawing the prompt: text to write, or a range of the field's
/// secure memory to write from where it lies.
///
/// A ``PromptRenderer`` produces them without reading a secret byte; the prompt
/// performs them with a ``ScreenWriter``, opening one read window on the field
/// for the revealed ranges.
public enum ScreenOperation: Sendable, Hashable {
  /// Text and escape sequences, never secret: the prompt, mask glyphs, hints.
  case text(String)
  /// The field's UTF-8 bytes in this range, revealed: written from secure
  /// memory with `write(2)`.
  case revealed(utf8Range: Range<Int>)
}

/// Operations gathered in order, adjacent texts joined.
struct ScreenOperations {
  var operations: [ScreenOperation] = []

  mutating func append(_ text: String) {
    guard !text.isEmpty else { return }
    if case .text(let last)? = operations.last {
      operations[operations.count - 1] = .text(last + text)
    } else {
      operations.append(.text(text))
    }
  }

  mutating func appendRevealed(_ range: Range<Int>) {
    operations.append(.revealed(utf8Range: range))
  }
}
