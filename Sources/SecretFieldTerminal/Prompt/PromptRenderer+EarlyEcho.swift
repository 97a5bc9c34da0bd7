package import SecretField

extension PromptRenderer {
  /// The bytes to write at once for a key `field` is about to take, before its
  /// edit, the window's close and the frame; nil when the key must wait for
  /// the frame. When it returns bytes, the renderer counts them as drawn: the
  /// next frame draws nothing again for the key, or, if the edit did not add
  /// exactly that character, draws the line again. A caller that could not
  /// write them calls ``invalidate()``.
  ///
  /// The key qualifies when it is one printable ASCII byte and one more glyph
  /// at the cursor is sure to be what the field shows: the field is masked in
  /// ``SecretField/ObfuscationMode/hidden`` mode (no character shows as last
  /// typed), the caret is at the end with nothing selected, the field is below
  /// both limits, every character in it is one byte (so its last one is
  /// ASCII, after which an ASCII character always starts a new one: no
  /// prepended mark can join them), and the line as drawn has room for one
  /// more glyph.
  ///
  /// Reads the one byte of `payload` (a secret) to see that it is printable,
  /// as the decoder did before it.
  ///
  /// - Complexity: O(1); allocates nothing.
  package mutating func earlyEcho(
    of event: KeyEvent, payload: UnsafeRawBufferPointer, before field: borrowing SecretFieldState
  ) -> [UInt8]? {
    guard case .text = event, payload.count == 1, payload[0] >= 0x20, payload[0] < 0x7F
    else { return nil }
    let count = field.count
    let utf8Count = field.utf8Count
    let limits = field.limits
    guard field.obfuscationMode == .hidden, field.selection.isEmpty, field.caret == count,
      utf8Count == count, count < limits.maxCharacters, utf8Count < limits.maxBytes,
      canAppendMask(after: count)
    else { return nil }
    noteAppendedMask(at: count)
    echoedEarly = true
    return maskGlyphBytes
  }

  /// Whether one more masked character typed at the end of `characterCount`
  /// characters shows as exactly the mask glyph written where the cursor is:
  /// the last frame is on the screen as drawn, it shows the field up to its
  /// last character with the cursor after it, and the line has room for one
  /// more glyph without scrolling.
  ///
  /// - Complexity: O(1); reads no secret.
  package func canAppendMask(after characterCount: Int) -> Bool {
    guard echoes, hasPrevious, previous.isValid, !startsOnFreshLine else { return false }
    // By index, as below: `last` and `map` allocate in a debug build.
    let cellCount = previous.cells.count
    let showsEnd =
      cellCount > 0
      ? previous.cells[cellCount - 1].index == characterCount - 1 : characterCount == 0
    return showsEnd && previous.caretColumn == previous.endColumn
      && previous.endColumn + maskColumns <= previous.columns - 1
  }

  /// Records that the mask glyph of character `index`, appended at the end,
  /// was written where the cursor was (``canAppendMask(after:)`` said it
  /// could be): the last frame now shows it, so the next frame draws no cell
  /// again for it.
  mutating func noteAppendedMask(at index: Int) {
    if previous.cells.count == previous.cells.capacity {
      // The spare frame grows with it: the next full frame is laid out there,
      // and would otherwise grow it again from what it last held.
      let capacity = Swift.max(16, 2 * previous.cells.capacity)
      previous.cells.reserveCapacity(capacity)
      spare.cells.reserveCapacity(capacity)
    }
    previous.cells.append(
      Cell(index: index, revealed: nil, columns: maskColumns, hasPlaceholder: false))
    previous.caretColumn += maskColumns
    previous.endColumn += maskColumns
  }
}

extension PromptRenderer {
  /// How many mask glyphs this frame adds at the end of the last one, when
  /// that is all there is to draw: 1 for a key typed at the end, 0 when the
  /// screen already shows the line (the early echo wrote the glyph and
  /// ``noteAppendedMask(at:)`` recorded it); nil when the frame must be laid
  /// out. Every cell is masked before and now, the caret is after the last
  /// one, the status lines, prompt and width are the last frame's, nothing is
  /// scrolled, and an added glyph has room (``canAppendMask(after:)``). The
  /// common key then costs no layout and no comparison of the line.
  ///
  /// - Complexity: O(1); reads no secret.
  func masksAppended(
    _ line: DisplayLine, _ cellColumns: [Int], _ status: [PromptStatusLine], _ columns: Int
  ) -> Int? {
    // Compared field by field and by index, as in `canAppendMask`.
    let count = line.cells.count
    let shown = previous.cells.count
    guard count > 0, line.caret == count, !line.isRevealed, line.revealEndsAt == nil,
      case .masked = line.cells[count - 1].content, cellColumns[count - 1] == maskColumns,
      echoes, hasPrevious, previous.isValid, !startsOnFreshLine, !previous.revealsAny,
      previous.scrollStart == 0, previous.columns == columns, let shownPrompt,
      shownPrompt.columns == columns, previous.prompt == shownPrompt.text,
      Self.startsEqual(status, count: status.count, previous.status)
    else { return nil }
    if count == shown + 1 && canAppendMask(after: shown) { return 1 }
    if count == shown && previous.cells[shown - 1].index == shown - 1
      && previous.caretColumn == previous.endColumn
    {
      return 0
    }
    return nil
  }
}
