public import SecretField
import SecureMemory

/// Turns what the field shows (a `DisplayLine`), the prompt and
/// the status lines into ``ScreenOperation``s for a terminal of a given width,
/// redrawing only what changed since the last frame.
///
/// The layout: the prompt, then the field on the same line, then the status
/// lines (message, caps lock, hint) below it. One mask glyph per masked
/// character; a revealed character takes the columns ``CharacterWidth`` gives
/// it, and a cell placed after a multi-byte one is placed by absolute column,
/// so a terminal that draws an emoji sequence narrower or wider than the table
/// does not push the caret off its place. A character with no width of its own
/// (a lone combining mark) is drawn after a dotted circle. Text longer than the
/// line scrolls sideways so the caret stays in view. The last column is never
/// written, so no terminal wraps the line.
///
/// Room for the status lines is made once, on the first frame, by moving down
/// and back up: later lines never scroll the screen, so a revealed field is
/// never pushed into the scrollback. ``finish(_:columns:)`` draws the line
/// masked again and moves below it, so nothing revealed stays on the screen.
///
/// Pure: reads no secret byte and does no I/O. ``cellColumns(of:in:)`` is the
/// one place that measures revealed characters, inside a read window.
public struct PromptRenderer: Sendable {
  /// The text before the field, cleaned, with its trailing space.
  public private(set) var prompt: String
  /// Lines shown once above the first prompt.
  let descriptionLines: [String]
  /// False when the typing is not shown at all.
  let echoes: Bool
  /// The glyph of a masked character, and the columns it takes.
  let maskGlyph: String
  let maskColumns: Int
  /// Drawn before a revealed character with no width of its own.
  let placeholder: String
  /// The status lines made room for under the field.
  let reservedLines: Int

  var previous: Frame?
  var startsOnFreshLine = true
  var hasShownDescription = false

  /// A renderer for `configuration`'s prompt, echo and description, on a
  /// terminal of `locale`, with room for `statusLineCapacity` status lines.
  public init(
    configuration: PromptConfiguration, locale: TerminalLocale, statusLineCapacity: Int
  ) {
    prompt = Self.promptText(configuration.prompt)
    descriptionLines =
      configuration.description.map {
        $0.split(separator: "\n", omittingEmptySubsequences: false).map {
          DisplayText.sanitized(String($0))
        }
      } ?? []
    switch configuration.echo {
    case .masked(let glyph):
      echoes = true
      maskGlyph = DisplayText.sanitized(glyph.map { String($0) } ?? locale.maskGlyph)
    case .silent:
      echoes = false
      maskGlyph = ""
    }
    maskColumns = max(1, DisplayText.columns(of: maskGlyph))
    placeholder = locale.isUTF8 ? "\u{25CC}" : "?"
    reservedLines = max(0, statusLineCapacity)
  }

  static func promptText(_ text: String) -> String {
    let clean = DisplayText.sanitized(text)
    guard let last = clean.last else { return "" }
    return last.isWhitespace ? clean : clean + " "
  }

  // MARK: Entries

  /// Starts a new entry on a fresh line with `prompt` (a confirmation's second
  /// entry, or the first again after a mismatch).
  public mutating func startEntry(prompt: String) {
    self.prompt = Self.promptText(prompt)
    previous = nil
    startsOnFreshLine = true
  }

  /// The next frame starts on a fresh line: the region drawn before was ended
  /// by ``finish(_:columns:)`` (before a stop, say) and stays as it is.
  public mutating func startOnFreshLine() {
    previous = nil
    startsOnFreshLine = true
  }

  /// The next frame redraws the whole region where it is (after a resize, or a
  /// stop the prompt could not see).
  public mutating func invalidate() {
    if previous != nil { previous?.isValid = false }
  }

  // MARK: Frames

  /// The operations that bring the screen from the last frame to this one.
  ///
  /// - Parameters:
  ///   - line: what the field shows now.
  ///   - cellColumns: the columns of each of `line`'s cells (from
  ///     ``cellColumns(of:in:)``).
  ///   - status: the lines under the field.
  ///   - columns: the terminal's width.
  ///   - rows: the terminal's height, when known: at most `rows - 1` status
  ///     lines are shown (the first ones), so the line never scrolls away.
  ///   - editedFrom: the first character an edit since the last frame may have
  ///     changed (``PromptEditor/Reaction/editedFrom``), nil when none did.
  ///   - redrawingAll: draw everything again (^L).
  /// - Complexity: O(cells); reads no secret.
  public mutating func draw(
    _ line: DisplayLine, cellColumns: [Int], status: [PromptStatusLine], columns: Int,
    rows: Int? = nil, editedFrom: Int? = nil, redrawingAll: Bool = false
  ) -> [ScreenOperation] {
    precondition(
      cellColumns.count == line.cells.count,
      "PromptRenderer.draw: \(cellColumns.count) widths for \(line.cells.count) cells")
    let columns = max(2, columns)
    var output = ScreenOperations()
    let capacity = rows.map { min(reservedLines, max(0, $0 - 1)) } ?? reservedLines
    let frame = layout(
      line, cellColumns: cellColumns, status: Array(status.prefix(capacity)), columns: columns)
    if startsOnFreshLine {
      beginRegion(statusCapacity: capacity, into: &output)
      hasShownDescription = true
    }
    let old = startsOnFreshLine || redrawingAll ? nil : previous.flatMap { $0.isValid ? $0 : nil }
    startsOnFreshLine = false
    var moved = false
    if let old, old.prompt == frame.prompt, old.scrollStart == frame.scrollStart,
      old.columns == frame.columns
    {
      if let first = firstDifference(old, frame, editedFrom: editedFrom) {
        drawCells(of: frame, from: first, into: &output)
        if frame.endColumn < old.endColumn {
          output.append(ControlSequence.eraseToEndOfLine)
        }
        moved = true
      }
    } else {
      output.append(ControlSequence.carriageReturn + frame.prompt)
      drawCells(of: frame, from: 0, into: &output)
      output.append(ControlSequence.eraseToEndOfLine)
      moved = true
    }
    if old == nil || old?.status != frame.status {
      drawStatus(
        frame.status, previousCount: old?.status.count, capacity: capacity, into: &output)
      moved = true
    }
    if moved || old?.caretColumn != frame.caretColumn {
      output.append(ControlSequence.cursorToColumn(frame.caretColumn))
    }
    previous = frame
    return output.operations
  }

  /// Ends the entry: the line drawn once more from `line`, every character
  /// masked (so nothing revealed stays, and keys that came with the last one
  /// are counted), the status lines erased, and the cursor at the start of the
  /// next line. The next frame starts on a fresh line.
  ///
  /// - Complexity: O(cells); reads no secret.
  public mutating func finish(_ line: DisplayLine, columns: Int) -> [ScreenOperation] {
    defer {
      previous = nil
      startsOnFreshLine = true
    }
    guard previous != nil else { return [] }
    var masked = line
    for index in masked.cells.indices { masked.cells[index].content = .masked }
    let frame = layout(
      masked, cellColumns: Array(repeating: maskColumns, count: masked.cells.count), status: [],
      columns: max(2, columns))
    var output = ScreenOperations()
    output.append(ControlSequence.carriageReturn + frame.prompt)
    drawCells(of: frame, from: 0, into: &output)
    output.append(
      ControlSequence.eraseToEndOfLine + ControlSequence.newline
        + ControlSequence.eraseToEndOfScreen)
    return output.operations
  }

  /// The columns each cell of `line` takes here: the mask glyph's for masked
  /// cells, and for revealed ones their scalars' widths by ``CharacterWidth``
  /// (0 for a character with no width of its own, which ``draw(_:cellColumns:status:columns:rows:editedFrom:redrawingAll:)``
  /// shows after a dotted circle, in one column).
  ///
  /// Reads the revealed characters in one read window on the field and wipes
  /// the stack after; opens no window when nothing is revealed.
  ///
  /// - Complexity: O(cells + revealed bytes), two `mprotect` calls and a
  ///   16 KiB stack wipe when any cell is revealed.
  public func cellColumns(of line: DisplayLine, in field: borrowing SecretFieldState) -> [Int] {
    guard line.cells.contains(where: \.isRevealed) else {
      return Array(repeating: maskColumns, count: line.cells.count)
    }
    let widths = field.withSecret { bytes in Self.measure(line, bytes, maskColumns: maskColumns) }
    wipeStack()
    return widths
  }

  @inline(never)
  static func measure(_ line: DisplayLine, _ bytes: UnsafeRawBufferPointer, maskColumns: Int)
    -> [Int]
  {
    line.cells.map { cell in
      guard case .revealed(let range) = cell.content else { return maskColumns }
      return CharacterWidth.sumColumns(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }

  // MARK: Layout

  /// One frame as drawn: the visible cells and where everything is.
  struct Frame: Sendable, Equatable {
    var prompt: String
    var fieldColumn: Int
    var scrollStart: Int
    var cells: [Cell]
    var caretColumn: Int
    var endColumn: Int
    var status: [PromptStatusLine]
    var columns: Int
    /// False once the screen may no longer show this frame (a resize).
    var isValid = true
  }

  /// A visible cell: masked, or revealed from a byte range of the field.
  struct Cell: Sendable, Equatable {
    var index: Int
    var revealed: Range<Int>?
    var columns: Int
    /// Drawn after the placeholder: a character with no width of its own.
    var hasPlaceholder: Bool
  }

  func layout(
    _ line: DisplayLine, cellColumns: [Int], status: [PromptStatusLine], columns: Int
  ) -> Frame {
    let widths = cellColumns.map { max(1, $0) }
    // The field keeps at least a few columns, taken from a long prompt.
    let minimumField = min(10, (columns - 1) / 2)
    let shownPrompt = DisplayText.truncated(prompt, toColumns: max(0, columns - 1 - minimumField))
    let fieldColumn = DisplayText.columns(of: shownPrompt)
    let available = max(0, columns - 1 - fieldColumn)
    let shownStatus = status.map {
      PromptStatusLine(DisplayText.truncated($0.text, toColumns: columns - 1), style: $0.style)
    }
    guard echoes else {
      return Frame(
        prompt: shownPrompt, fieldColumn: fieldColumn, scrollStart: 0, cells: [],
        caretColumn: fieldColumn, endColumn: fieldColumn, status: shownStatus, columns: columns)
    }
    let caret = line.caret
    var start = min(previous?.scrollStart ?? 0, caret)
    var beforeCaret = widths[start..<caret].reduce(0, +)
    while beforeCaret > available && start < caret {
      beforeCaret -= widths[start]
      start += 1
    }
    // Use room on the left when the text after the start fits with more of it.
    var fromStart = widths[start...].reduce(0, +)
    while start > 0 && fromStart + widths[start - 1] <= available {
      start -= 1
      fromStart += widths[start]
      beforeCaret += widths[start]
    }
    var cells: [Cell] = []
    var used = 0
    for index in start..<line.cells.count {
      let width = widths[index]
      if used + width > available { break }
      used += width
      var revealed: Range<Int>?
      var hasPlaceholder = false
      if case .revealed(let range) = line.cells[index].content {
        revealed = range
        hasPlaceholder = cellColumns[index] == 0
      }
      cells.append(
        Cell(index: index, revealed: revealed, columns: width, hasPlaceholder: hasPlaceholder))
    }
    return Frame(
      prompt: shownPrompt, fieldColumn: fieldColumn, scrollStart: start, cells: cells,
      caretColumn: fieldColumn + beforeCaret, endColumn: fieldColumn + used,
      status: shownStatus, columns: columns)
  }

  /// The first visible cell that differs, or nil when the field part of the
  /// line is the same. Masked cells all look alike; a revealed cell is the same
  /// only if it is the same character, not touched by an edit since.
  func firstDifference(_ old: Frame, _ new: Frame, editedFrom: Int?) -> Int? {
    let shared = min(old.cells.count, new.cells.count)
    for position in 0..<shared {
      let before = old.cells[position]
      let after = new.cells[position]
      switch (before.revealed, after.revealed) {
      case (nil, nil):
        if before.columns != after.columns { return position }
      case (let oldRange?, let newRange?):
        if before.index != after.index || oldRange != newRange || before.columns != after.columns
          || (editedFrom.map { after.index >= $0 } ?? false)
        {
          return position
        }
      default:
        return position
      }
    }
    return old.cells.count == new.cells.count ? nil : shared
  }

  // MARK: Drawing

  /// The operations that start a region on the cursor's line: the description
  /// (the first time only), then room for the status lines below.
  func beginRegion(statusCapacity: Int, into output: inout ScreenOperations) {
    if !hasShownDescription {
      for line in descriptionLines {
        output.append(
          ControlSequence.carriageReturn + line + ControlSequence.eraseToEndOfLine
            + ControlSequence.newline)
      }
    }
    if statusCapacity > 0 {
      output.append(
        String(repeating: ControlSequence.newline, count: statusCapacity)
          + ControlSequence.cursorUp(statusCapacity))
    }
  }

  func drawCells(of frame: Frame, from first: Int, into output: inout ScreenOperations) {
    var column = frame.fieldColumn + frame.cells[..<first].reduce(0) { $0 + $1.columns }
    output.append(ControlSequence.cursorToColumn(column))
    var placedByTerminal = true
    for cell in frame.cells[first...] {
      if !placedByTerminal { output.append(ControlSequence.cursorToColumn(column)) }
      if let range = cell.revealed {
        if cell.hasPlaceholder { output.append(placeholder) }
        output.appendRevealed(range)
        // The terminal's idea of a multi-byte character's width may differ from
        // the table's: place what follows by absolute column.
        placedByTerminal = range.count == 1
      } else {
        output.append(maskGlyph)
        placedByTerminal = true
      }
      column += cell.columns
    }
    if !placedByTerminal { output.append(ControlSequence.cursorToColumn(column)) }
  }

  /// The status lines, each on its own line under the field, then back up to
  /// the field's line. Lines left from a longer list are erased.
  func drawStatus(
    _ lines: [PromptStatusLine], previousCount: Int?, capacity: Int,
    into output: inout ScreenOperations
  ) {
    var down = 0
    for line in lines {
      output.append(ControlSequence.newline)
      switch line.style {
      case .hint:
        output.append(ControlSequence.dim + line.text + ControlSequence.resetAttributes)
      case .message, .warning:
        output.append(line.text)
      }
      output.append(ControlSequence.eraseToEndOfLine)
      down += 1
    }
    let stale = previousCount.map { $0 > lines.count } ?? (lines.count < capacity)
    if stale {
      output.append(ControlSequence.newline + ControlSequence.eraseToEndOfScreen)
      down += 1
    }
    if down > 0 { output.append(ControlSequence.cursorUp(down)) }
  }
}
