package import SecretField
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
///
/// Allocation-free on the key path: a frame drawn into a ``ScreenOutput`` the
/// caller keeps (``draw(_:cellColumns:status:columns:rows:editedFrom:redrawingAll:into:)``)
/// reuses its buffers, the previous frame's and the widths', writes the escape
/// sequences as bytes, and measures the prompt and the status lines again only
/// when they or the width change; once the buffers have grown to the field's
/// length, a key typed or erased at the end allocates nothing.
package struct PromptRenderer: Sendable {
  /// The text before the field, cleaned, with its trailing space.
  package private(set) var prompt: String
  /// Lines shown once above the first prompt.
  let descriptionLines: [String]
  /// False when the typing is not shown at all.
  let echoes: Bool
  /// The glyph of a masked character, and the columns it takes.
  let maskGlyph: String
  let maskColumns: Int
  /// The mask glyph's bytes, for an early echo (``earlyEcho(of:payload:before:)``).
  let maskGlyphBytes: [UInt8]
  /// An early echo wrote a glyph since the last frame: that frame checks
  /// the edit added the character it showed, else draws the line again.
  var echoedEarly = false
  /// Drawn before a revealed character with no width of its own.
  let placeholder: String
  /// The status lines made room for under the field.
  let reservedLines: Int

  /// The last frame drawn, when ``hasPrevious``; kept for its buffers when
  /// forgotten.
  var previous = Frame()
  var hasPrevious = false
  /// Whether the last frame drawn shows revealed text on the screen.
  var showsRevealed: Bool { hasPrevious && previous.revealsAny }
  /// The frame before `previous`, kept for its buffers: the next frame is laid
  /// out in it.
  var spare = Frame()
  /// The prompt as shown at a width, kept until the prompt or the width changes.
  var shownPrompt: ShownText?
  /// The status lines as given and as shown at a width, kept until either
  /// changes.
  var shownStatus: ShownStatus?
  var startsOnFreshLine = true
  var hasShownDescription = false

  /// A renderer for `configuration`'s prompt, echo and description, on a
  /// terminal of `locale`, with room for `statusLineCapacity` status lines.
  package init(
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
    maskGlyphBytes = Array(maskGlyph.utf8)
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
  package mutating func startEntry(prompt: String) {
    self.prompt = Self.promptText(prompt)
    shownPrompt = nil
    retirePrevious()
    startsOnFreshLine = true
  }

  /// The next frame starts on a fresh line: the region drawn before was ended
  /// by ``finish(_:columns:)`` (before a stop, say) and stays as it is.
  package mutating func startOnFreshLine() {
    retirePrevious()
    startsOnFreshLine = true
  }

  /// The next frame redraws the whole region where it is (after a resize, or a
  /// stop the prompt could not see).
  package mutating func invalidate() {
    if hasPrevious { previous.isValid = false }
  }

  /// Forgets the last frame, keeping its buffers for a next one.
  mutating func retirePrevious() {
    hasPrevious = false
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
  ///     changed (``PromptField/Reaction/editedFrom``), nil when none did.
  ///   - redrawingAll: draw everything again (^L).
  /// - Complexity: O(cells); reads no secret; allocates (see
  ///   ``draw(_:cellColumns:status:columns:rows:editedFrom:redrawingAll:into:)``
  ///   for the frame without).
  package mutating func draw(
    _ line: DisplayLine, cellColumns: [Int], status: [PromptStatusLine], columns: Int,
    rows: Int? = nil, editedFrom: Int? = nil, redrawingAll: Bool = false
  ) -> [ScreenOperation] {
    var output = ScreenOutput()
    draw(
      line, cellColumns: cellColumns, status: status, columns: columns, rows: rows,
      editedFrom: editedFrom, redrawingAll: redrawingAll, into: &output)
    return output.operations
  }

  /// Writes into `output` (emptied first, its capacity kept) what brings the
  /// screen from the last frame to this one: the same bytes as
  /// ``draw(_:cellColumns:status:columns:rows:editedFrom:redrawingAll:)``'s
  /// operations, the revealed ranges noted where they go.
  ///
  /// A key typed at the end of a masked line, with nothing else changed, is
  /// drawn as its mask glyph alone, and a masked line the screen already shows
  /// as nothing, without laying the line out again.
  ///
  /// - Complexity: O(cells), O(1) for that key; reads no secret. Allocates
  ///   nothing once `output`, the renderer's frames and `cellColumns` have
  ///   room for the line, when the prompt, the status lines and the width are
  ///   those of the last frame.
  package mutating func draw(
    _ line: DisplayLine, cellColumns: [Int], status: [PromptStatusLine], columns: Int,
    rows: Int? = nil, editedFrom: Int? = nil, redrawingAll: Bool = false,
    into output: inout ScreenOutput
  ) {
    precondition(
      cellColumns.count == line.cells.count,
      "PromptRenderer.draw: \(cellColumns.count) widths for \(line.cells.count) cells")
    let columns = max(2, columns)
    output.removeAll()
    let capacity = rows.map { min(reservedLines, max(0, $0 - 1)) } ?? reservedLines
    let shownStatus = shownStatusLines(status, capacity, columns)
    let appended = redrawingAll ? nil : masksAppended(line, cellColumns, shownStatus, columns)
    if echoedEarly {
      // The glyph written early is on the screen; unless the edit added just
      // that character, redraw the region where it is.
      echoedEarly = false
      if appended != 0 { invalidate() }
    }
    if let appended {
      if appended == 1 {
        output.append(maskGlyph)
        noteAppendedMask(at: line.cells.count - 1)
      }
      return
    }
    var frame = Frame()
    swap(&frame, &spare)
    layout(line, cellColumns: cellColumns, status: shownStatus, columns: columns, into: &frame)
    if startsOnFreshLine {
      beginRegion(statusCapacity: capacity, into: &output)
      hasShownDescription = true
    }
    let old =
      startsOnFreshLine || redrawingAll || !hasPrevious || !previous.isValid ? nil : previous
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
      output.append(ControlSequence.carriageReturn)
      output.append(frame.prompt)
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
      output.appendCursorToColumn(frame.caretColumn)
    }
    // The frame before becomes the spare; the copy of it in `old` ends with
    // the call, so the next frame has its buffers to itself.
    swap(&frame, &previous)
    spare = frame
    hasPrevious = true
  }

  /// Ends the entry: the line drawn once more from `line`, every character
  /// masked (so nothing revealed stays, and keys that came with the last one
  /// are counted), the status lines erased, and the cursor at the start of the
  /// next line. The next frame starts on a fresh line.
  ///
  /// - Complexity: O(cells); reads no secret.
  package mutating func finish(_ line: DisplayLine, columns: Int) -> [ScreenOperation] {
    var output = ScreenOutput()
    finish(line, columns: columns, into: &output)
    return output.operations
  }

  /// Writes into `output` (emptied first) what ends the entry, as
  /// ``finish(_:columns:)`` does.
  ///
  /// - Complexity: O(cells); reads no secret.
  package mutating func finish(_ line: DisplayLine, columns: Int, into output: inout ScreenOutput) {
    output.removeAll()
    defer {
      retirePrevious()
      startsOnFreshLine = true
    }
    guard hasPrevious else { return }
    let columns = max(2, columns)
    var frame = Frame()
    swap(&frame, &spare)
    defer { swap(&frame, &spare) }
    layout(line, cellColumns: nil, status: [], columns: columns, into: &frame)
    output.append(ControlSequence.carriageReturn)
    output.append(frame.prompt)
    drawCells(of: frame, from: 0, into: &output)
    output.append(ControlSequence.eraseToEndOfLine)
    output.append(ControlSequence.newline)
    output.append(ControlSequence.eraseToEndOfScreen)
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
  package func cellColumns(of line: DisplayLine, in field: borrowing SecretFieldState) -> [Int] {
    var widths: [Int] = []
    cellColumns(of: line, in: field, into: &widths)
    return widths
  }

  /// Puts the columns of each cell of `line` in `widths`, as
  /// ``cellColumns(of:in:)`` returns them, reusing its buffer: room is made
  /// before the read window opens, so nothing is allocated inside it.
  ///
  /// - Complexity: that of ``cellColumns(of:in:)``; allocates only when
  ///   `widths` has no room for the line.
  package func cellColumns(
    of line: DisplayLine, in field: borrowing SecretFieldState, into widths: inout [Int]
  ) {
    widths.removeAll(keepingCapacity: true)
    // Doubling: an exact reservation made a new buffer for every key.
    if widths.capacity < line.cells.count {
      widths.reserveCapacity(Swift.max(line.cells.count, 2 * widths.capacity))
    }
    guard Self.revealsAny(line) else {
      for _ in line.cells.indices { widths.append(maskColumns) }
      return
    }
    field.withSecret { bytes in
      Self.measure(line, bytes, maskColumns: maskColumns, into: &widths)
    }
    wipeStack()
  }

  /// Whether any cell of `line` is revealed. (Loops here and below go by index:
  /// generic algorithms and slice iterators allocate in a debug build, and
  /// KeyPathAllocationTests counts the debug build too.)
  static func revealsAny(_ line: DisplayLine) -> Bool {
    for index in line.cells.indices where line.cells[index].isRevealed { return true }
    return false
  }

  @inline(never)
  static func measure(
    _ line: DisplayLine, _ bytes: UnsafeRawBufferPointer, maskColumns: Int,
    into widths: inout [Int]
  ) {
    for index in line.cells.indices {
      guard case .revealed(let range) = line.cells[index].content else {
        widths.append(maskColumns)
        continue
      }
      widths.append(CharacterWidth.sumColumns(UnsafeRawBufferPointer(rebasing: bytes[range])))
    }
  }

  // MARK: Layout

  /// One frame as drawn: the visible cells and where everything is.
  struct Frame: Sendable, Equatable {
    var prompt = ""
    var fieldColumn = 0
    var scrollStart = 0
    var cells: [Cell] = []
    var caretColumn = 0
    var endColumn = 0
    var status: [PromptStatusLine] = []
    var columns = 0
    /// False once the screen may no longer show this frame (a resize).
    var isValid = true
    /// Some visible cell shows its character.
    var revealsAny = false
  }

  /// A text cut to fit a width, with the columns it takes.
  struct ShownText: Sendable {
    var columns: Int
    var text: String
    var width: Int
  }

  /// Status lines as given, and as shown at a width.
  struct ShownStatus: Sendable {
    var given: [PromptStatusLine]
    var columns: Int
    var shown: [PromptStatusLine]
  }

  /// A visible cell: masked, or revealed from a byte range of the field.
  struct Cell: Sendable, Equatable {
    var index: Int
    var revealed: Range<Int>?
    var columns: Int
    /// Drawn after the placeholder: a character with no width of its own.
    var hasPlaceholder: Bool
  }

  /// The prompt as shown at `columns`: cut so the field keeps at least a few
  /// columns, measured once per prompt and width.
  mutating func shownPromptText(columns: Int) -> ShownText {
    if let shownPrompt, shownPrompt.columns == columns { return shownPrompt }
    let minimumField = min(10, (columns - 1) / 2)
    let text = DisplayText.truncated(prompt, toColumns: max(0, columns - 1 - minimumField))
    let shown = ShownText(columns: columns, text: text, width: DisplayText.columns(of: text))
    shownPrompt = shown
    return shown
  }

  /// The first `capacity` of `status`, each cut to fit `columns`; the lines
  /// of the last frame when neither changed.
  mutating func shownStatusLines(
    _ status: [PromptStatusLine], _ capacity: Int, _ columns: Int
  ) -> [PromptStatusLine] {
    let given = status.prefix(capacity)
    if let shownStatus, shownStatus.columns == columns,
      Self.startsEqual(status, count: given.count, shownStatus.given)
    {
      return shownStatus.shown
    }
    let shown = given.map {
      PromptStatusLine(DisplayText.truncated($0.text, toColumns: columns - 1), style: $0.style)
    }
    shownStatus = ShownStatus(given: Array(given), columns: columns, shown: shown)
    return shown
  }

  /// Whether the first `count` of `lines` are `other`, compared by index.
  static func startsEqual(
    _ lines: [PromptStatusLine], count: Int, _ other: [PromptStatusLine]
  ) -> Bool {
    guard other.count == count else { return false }
    for index in 0..<count where lines[index] != other[index] { return false }
    return true
  }

  /// Lays `line` out in `frame`, reusing its buffers: the cells that fit
  /// after the prompt, scrolled so the caret shows. `cellColumns` nil draws
  /// every cell masked (``finish(_:columns:)``).
  mutating func layout(
    _ line: DisplayLine, cellColumns: [Int]?, status: [PromptStatusLine], columns: Int,
    into frame: inout Frame
  ) {
    let maskColumns = maskColumns
    func width(_ index: Int) -> Int { max(1, cellColumns?[index] ?? maskColumns) }
    let shownPrompt = shownPromptText(columns: columns)
    let fieldColumn = shownPrompt.width
    let available = max(0, columns - 1 - fieldColumn)
    frame.prompt = shownPrompt.text
    frame.fieldColumn = fieldColumn
    frame.status = status
    frame.columns = columns
    frame.isValid = true
    frame.cells.removeAll(keepingCapacity: true)
    frame.revealsAny = false
    guard echoes else {
      frame.scrollStart = 0
      frame.caretColumn = fieldColumn
      frame.endColumn = fieldColumn
      return
    }
    let caret = line.caret
    var start = min(hasPrevious ? previous.scrollStart : 0, caret)
    var beforeCaret = 0
    for index in start..<caret { beforeCaret += width(index) }
    while beforeCaret > available && start < caret {
      beforeCaret -= width(start)
      start += 1
    }
    // Use room on the left when the text after the start fits with more of it.
    var fromStart = 0
    for index in start..<line.cells.count { fromStart += width(index) }
    while start > 0 && fromStart + width(start - 1) <= available {
      start -= 1
      fromStart += width(start)
      beforeCaret += width(start)
    }
    var used = 0
    for index in start..<line.cells.count {
      let width = width(index)
      if used + width > available { break }
      used += width
      var revealed: Range<Int>?
      var hasPlaceholder = false
      if let cellColumns, case .revealed(let range) = line.cells[index].content {
        revealed = range
        hasPlaceholder = cellColumns[index] == 0
        frame.revealsAny = true
      }
      frame.cells.append(
        Cell(index: index, revealed: revealed, columns: width, hasPlaceholder: hasPlaceholder))
    }
    frame.scrollStart = start
    frame.caretColumn = fieldColumn + beforeCaret
    frame.endColumn = fieldColumn + used
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
  func beginRegion(statusCapacity: Int, into output: inout ScreenOutput) {
    if !hasShownDescription {
      for line in descriptionLines {
        output.append(ControlSequence.carriageReturn)
        output.append(line)
        output.append(ControlSequence.eraseToEndOfLine)
        output.append(ControlSequence.newline)
      }
    }
    for _ in 0..<statusCapacity { output.append(ControlSequence.newline) }
    output.appendCursorUp(statusCapacity)
  }

  func drawCells(of frame: Frame, from first: Int, into output: inout ScreenOutput) {
    var column = frame.fieldColumn
    for index in 0..<first { column += frame.cells[index].columns }
    output.appendCursorToColumn(column)
    var placedByTerminal = true
    for index in first..<frame.cells.count {
      let cell = frame.cells[index]
      if !placedByTerminal { output.appendCursorToColumn(column) }
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
    if !placedByTerminal { output.appendCursorToColumn(column) }
  }

  /// The status lines, each on its own line under the field, then back up to
  /// the field's line. Lines left from a longer list are erased.
  func drawStatus(
    _ lines: [PromptStatusLine], previousCount: Int?, capacity: Int,
    into output: inout ScreenOutput
  ) {
    var down = 0
    for line in lines {
      output.append(ControlSequence.newline)
      switch line.style {
      case .hint:
        output.append(ControlSequence.dim)
        output.append(line.text)
        output.append(ControlSequence.resetAttributes)
      case .message, .warning:
        output.append(line.text)
      }
      output.append(ControlSequence.eraseToEndOfLine)
      down += 1
    }
    let stale = previousCount.map { $0 > lines.count } ?? (lines.count < capacity)
    if stale {
      output.append(ControlSequence.newline)
      output.append(ControlSequence.eraseToEndOfScreen)
      down += 1
    }
    output.appendCursorUp(down)
  }
}
