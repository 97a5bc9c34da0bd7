import SecureMemory

extension SecretFieldState {
  /// The line to draw at `now`: one cell per character, masked or revealed, with
  /// the caret, the selection and the hints.
  ///
  /// A cell is revealed when the mode is ``ObfuscationMode/visible``, or when it is
  /// the last-typed character and `now` is before its reveal ends. While captured
  /// under ``FieldPolicy/maskOnCapture`` every cell is masked. The line holds no
  /// text: see ``DisplayLine``.
  ///
  /// - Complexity: O(``count``); reads no secret byte.
  public func render(at now: ContinuousClock.Instant) -> DisplayLine {
    var line = DisplayLine(
      cells: [], maskGlyph: maskGlyph, caret: 0, selection: 0..<0, showsCapsLockHint: false,
      isRevealed: false, isMaskedForCapture: false, revealEndsAt: nil)
    render(at: now, into: &line)
    return line
  }

  /// Renders the line to draw at `now` into `line`, as ``render(at:)`` does,
  /// reusing its cells' buffer: a front end that keeps one line from frame to
  /// frame allocates nothing once the buffer has room for the field.
  ///
  /// - Complexity: O(``count``); reads no secret byte; allocates only when
  ///   `line`'s cells have no room for ``count`` (or share their buffer).
  public func render(at now: ContinuousClock.Instant, into line: inout DisplayLine) {
    let showsAll = isShowingText
    let lastTypedIndex: Int? =
      if let lastTyped, !isMaskedForCapture, isFocused, now < lastTyped.until {
        lastTyped.index
      } else {
        nil
      }
    line.cells.removeAll(keepingCapacity: true)
    // Doubling, not `reserveCapacity(count)` alone: an exact reservation made
    // a new buffer for every character typed at the end.
    if line.cells.capacity < count {
      line.cells.reserveCapacity(Swift.max(count, 2 * line.cells.capacity))
    }
    for character in 0..<count {
      let content: DisplayLine.Cell.Content =
        showsAll || character == lastTypedIndex
        ? .revealed(utf8Range: index.byteRange(of: character..<character + 1)) : .masked
      line.cells.append(DisplayLine.Cell(index: character, content: content))
    }
    line.maskGlyph = maskGlyph
    line.caret = caret
    line.selection = selection
    line.showsCapsLockHint = capsLock == .on && isFocused
    line.isRevealed = showsAll
    line.isMaskedForCapture = isMaskedForCapture
    line.revealEndsAt = lastTypedIndex == nil ? nil : lastTyped?.until
  }

  /// Calls `body` with the bytes of a revealed cell, readable only while it runs,
  /// for a front end to draw.
  ///
  /// Returns nil without calling `body` when the cell is masked, or when the field
  /// has become masked for capture since the line was rendered.
  ///
  /// - Precondition: the cell comes from a line rendered since the last edit
  ///   (its character still has the same byte range).
  /// - Complexity: two `mprotect` calls.
  public func withRevealedBytes<Result: ~Copyable>(
    of cell: DisplayLine.Cell, _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result? {
    guard case .revealed(let range) = cell.content, !isMaskedForCapture else { return nil }
    precondition(
      cell.index >= 0 && cell.index < count
        && index.byteRange(of: cell.index..<cell.index + 1) == range,
      "SecretFieldState.withRevealedBytes: the cell is from before an edit; render again")
    return text.withUnsafeBytes { bytes in
      body(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }
}
