extension PromptRenderer {
  /// The mask glyph's bytes, for an echo written before the frame is drawn.
  public var maskGlyphBytes: [UInt8] { Array(maskGlyph.utf8) }

  /// Whether one more masked character typed at the end of `characterCount`
  /// characters shows as exactly the mask glyph written where the cursor is:
  /// the last frame is on the screen as drawn, it shows the field up to its
  /// last character with the cursor after it, and the line has room for one
  /// more glyph without scrolling.
  ///
  /// - Complexity: O(1); reads no secret.
  public func canAppendMask(after characterCount: Int) -> Bool {
    guard echoes, hasPrevious, previous.isValid, !startsOnFreshLine else { return false }
    let showsEnd =
      previous.cells.last.map { $0.index == characterCount - 1 } ?? (characterCount == 0)
    return showsEnd && previous.caretColumn == previous.endColumn
      && previous.endColumn + maskColumns <= previous.columns - 1
  }

  /// Records that the mask glyph of character `index`, appended at the end,
  /// was written where the cursor was (``canAppendMask(after:)`` said it
  /// could be): the last frame now shows it, so the next frame draws no cell
  /// again for it.
  public mutating func noteAppendedMask(at index: Int) {
    previous.cells.append(
      Cell(index: index, revealed: nil, columns: maskColumns, hasPlaceholder: false))
    previous.caretColumn += maskColumns
    previous.endColumn += maskColumns
  }
}
