import SecureMemory

// Adapters for text systems that speak in UTF-16 offsets or whole strings
// (UIKit, SwiftUI). They receive the typed text as a `String` that the host
// made: that copy is in the host's memory and outside this field's control.
// The adapters read its UTF-8 in place and copy it into secure memory at once;
// they make no other copy.

extension SecretFieldState {
  /// The text a host that binds a `String` to the field should show: one mask
  /// glyph per character. Holds no secret.
  public var maskedText: String {
    String(repeating: String(maskGlyph), count: count)
  }

  /// Applies an edit as UIKit's `textField(_:shouldChangeCharactersIn:replacementString:)`
  /// reports it: the UTF-16 range of the text the host shows, and its replacement.
  ///
  /// `line` is the ``DisplayLine`` the host is showing; its cells give the UTF-16
  /// units: a masked cell counts as the mask glyph, a revealed cell as its own
  /// character. A host that shows ``maskedText`` passes a fully masked line, and
  /// then one unit is one character for the default glyph. The replacement is
  /// treated as typed: one character is revealed as last typed under
  /// ``ObfuscationMode/revealLastTyped(_:)``.
  ///
  /// The replacement's UTF-8 is copied into secure memory at once; the host's
  /// `String` stays the host's to wipe or drop, outside this field's control.
  /// UIKit does not say whether an edit is a paste, so ``FieldPolicy/noPaste`` is
  /// for the host to enforce (turn off the paste action).
  ///
  /// - Throws: ``FieldError`` with code `FieldError.Code.outOfSync` when `line`
  ///   is not this field's current line or the range is out of bounds or splits a
  ///   character, and as ``insert(_:at:)-(UnsafeRawBufferPointer,_)`` does. The field is then unchanged.
  public mutating func replace(
    utf16Range: Range<Int>, with replacement: String, displayedAs line: DisplayLine,
    at now: ContinuousClock.Instant? = nil
  ) throws(FieldError) {
    let characters = characterRange(ofUTF16: utf16Range, in: line)
    wipeStack()
    let range = try characters.get()
    var replacement = replacement
    let outcome: Result<Void, FieldError> = replacement.withUTF8 { utf8 in
      do throws(FieldError) {
        try edit(range, replacingWith: UnsafeRawBufferPointer(utf8), kind: .typed(now))
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try outcome.get()
  }

  @inline(never)
  private func characterRange(ofUTF16 range: Range<Int>, in line: DisplayLine) -> Result<
    Range<Int>, FieldError
  > {
    guard line.cells.count == count else {
      return .failure(.outOfSync("the display line has \(line.cells.count) cells, not \(count)"))
    }
    let glyphUnits = line.maskGlyph.utf16.count
    return text.withUnsafeBytes { bytes in
      var lower: Int?
      var upper: Int?
      var units = 0
      for cell in line.cells {
        if units == range.lowerBound { lower = cell.index }
        if units == range.upperBound { upper = cell.index }
        switch cell.content {
        case .masked:
          units += glyphUnits
        case .revealed(let utf8Range):
          guard index.byteRange(of: cell.index..<cell.index + 1) == utf8Range else {
            return .failure(.outOfSync("the display line is from before the last edit"))
          }
          var offset = utf8Range.lowerBound
          while offset < utf8Range.upperBound {
            let (scalar, length) = UTF8Scalars.decode(bytes, at: offset)
            units += scalar.value > 0xFFFF ? 2 : 1
            offset += length
          }
        }
      }
      if units == range.lowerBound { lower = count }
      if units == range.upperBound { upper = count }
      guard let lower, let upper else {
        return .failure(
          .outOfSync(
            "the UTF-16 range \(range) is outside the \(units) units shown or splits a character"))
      }
      return .success(lower..<upper)
    }
  }

  /// Rebuilds an edit from the masked text a host field now shows, as a SwiftUI
  /// `TextField` bound to ``maskedText`` reports it, and applies it.
  ///
  /// Before the edit the host showed ``maskedText`` (one mask glyph per
  /// character) with `previousSelection` selected. In `snapshot`, characters that
  /// were there appear as mask glyphs and new ones as themselves. The adapter
  /// accepts the edits a keyboard, a paste or a menu makes:
  /// - new text replacing the previous selection (typing, pasting, select-all and
  ///   type), anywhere in the text;
  /// - deletion of the previous selection;
  /// - deletion next to an empty selection: backward (backspace) or forward. When
  ///   both fit, `caretAfterEdit` tells them apart: the caret is then at the start
  ///   of the deleted range for a backward deletion, at the old caret for a
  ///   forward one.
  ///
  /// It never guesses. It throws `FieldError.Code.ambiguousEdit` when the new text
  /// contains a scalar of the mask glyph (typed glyphs cannot be told from masked
  /// characters), when the change is not at the previous selection, when a
  /// deletion could be on either side of the caret and `caretAfterEdit` does not
  /// say which, and when the text looks unchanged although a selection could
  /// have been replaced by glyphs. Text is compared by Unicode scalars, so a
  /// combining mark typed after a glyph is new text, not part of the glyph.
  ///
  /// The new text's UTF-8 is copied into secure memory at once; the host's
  /// `String` is outside this field's control. New text of one character is
  /// treated as typed (revealed as last typed under `.revealLastTyped` when `now`
  /// is given), longer text as typed too, without reveal.
  ///
  /// - Parameters:
  ///   - snapshot: the text the host field shows now.
  ///   - previousSelection: the selection, in characters, before the edit.
  ///   - caretAfterEdit: the host's caret after the edit, if it knows it.
  ///   - now: when the edit happened, for the last-typed reveal.
  /// - Returns: the range of old characters the edit replaced.
  /// - Throws: ``FieldError``: `ambiguousEdit` as above; `outOfSync` when
  ///   `previousSelection` is out of bounds; the errors of ``insert(_:at:)-(UnsafeRawBufferPointer,_)``. The
  ///   field is then unchanged.
  @discardableResult
  public mutating func applyMaskedSnapshot(
    _ snapshot: String, previousSelection: Range<Int>, caretAfterEdit: Int? = nil,
    at now: ContinuousClock.Instant? = nil
  ) throws(FieldError) -> Range<Int> {
    guard previousSelection.lowerBound >= 0 && previousSelection.upperBound <= count else {
      throw .outOfSync("the previous selection \(previousSelection) is outside \(count) characters")
    }
    let glyph = MaskGlyphPattern(maskGlyph)
    var snapshot = snapshot
    let outcome: Result<Range<Int>, FieldError> = snapshot.withUTF8 { utf8 in
      let bytes = UnsafeRawBufferPointer(utf8)
      let shape = SnapshotShape(of: bytes, glyph: glyph)
      let plan = planSnapshotEdit(shape, previousSelection, caretAfterEdit)
      guard case .success(let range) = plan else { return plan }
      do throws(FieldError) {
        try edit(
          range, replacingWith: UnsafeRawBufferPointer(rebasing: bytes[shape.newText]),
          kind: shape.newText.isEmpty ? .deletion : .typed(now))
        return .success(range)
      } catch {
        return .failure(error)
      }
    }
    wipeStack()
    return try outcome.get()
  }

  private func planSnapshotEdit(
    _ shape: SnapshotShape, _ selected: Range<Int>, _ caretAfterEdit: Int?
  ) -> Result<Range<Int>, FieldError> {
    if shape.newTextContainsGlyph {
      return .failure(
        .ambiguousEdit(
          "the new text contains the mask glyph, which cannot be told from a masked character"))
    }
    if !shape.newText.isEmpty {
      let replaced = shape.leadingGlyphs..<max(count - shape.trailingGlyphs, shape.leadingGlyphs)
      guard shape.leadingGlyphs + shape.trailingGlyphs <= count, replaced == selected else {
        return .failure(
          .ambiguousEdit(
            "the new text is not where the selection \(selected) was, or the text around it "
              + "holds more mask glyphs than the field has characters"))
      }
      return .success(replaced)
    }
    let deleted = count - shape.leadingGlyphs
    if deleted < 0 {
      return .failure(
        .ambiguousEdit("the text holds more mask glyphs than the field has characters"))
    }
    if deleted == 0 {
      guard selected.isEmpty else {
        return .failure(
          .ambiguousEdit("the text looks unchanged, but the selection may have been retyped"))
      }
      return .success(selected)
    }
    if !selected.isEmpty {
      guard selected.count == deleted else {
        return .failure(
          .ambiguousEdit("\(deleted) characters are gone, but \(selected.count) were selected"))
      }
      return .success(selected)
    }
    let caret = selected.lowerBound
    let backward = caret >= deleted ? (caret - deleted)..<caret : nil
    let forward = caret + deleted <= count ? caret..<(caret + deleted) : nil
    switch (backward, forward) {
    case (let backward?, nil): return .success(backward)
    case (nil, let forward?): return .success(forward)
    case (let backward?, let forward?):
      if caretAfterEdit == backward.lowerBound { return .success(backward) }
      if caretAfterEdit == forward.lowerBound { return .success(forward) }
      return .failure(
        .ambiguousEdit(
          "\(deleted) characters are gone and could be on either side of the caret; "
            + "pass caretAfterEdit to say which"))
    case (nil, nil):
      return .failure(
        .ambiguousEdit("no deletion next to the caret removes \(deleted) characters"))
    }
  }
}

/// The mask glyph as UTF-8, whole and scalar by scalar.
struct MaskGlyphPattern {
  var bytes: [UInt8]
  var scalars: [[UInt8]]

  init(_ glyph: Character) {
    bytes = Array(glyph.utf8)
    scalars = glyph.unicodeScalars.map { Array(String($0).utf8) }
  }
}

/// A host's snapshot as runs of glyphs around new text.
struct SnapshotShape {
  var leadingGlyphs = 0
  var trailingGlyphs = 0
  /// The UTF-8 range of the snapshot between the glyph runs.
  var newText: Range<Int>
  var newTextContainsGlyph = false

  /// Reads the host's text, which is secret too: callers wipe the stack after.
  @inline(never)
  init(of bytes: UnsafeRawBufferPointer, glyph: MaskGlyphPattern) {
    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
      guard offset >= 0 && offset + pattern.count <= bytes.count else { return false }
      for (position, byte) in pattern.enumerated() where bytes[offset + position] != byte {
        return false
      }
      return true
    }
    var start = 0
    var end = bytes.count
    while !glyph.bytes.isEmpty && start + glyph.bytes.count <= end
      && matches(glyph.bytes, at: start)
    {
      start += glyph.bytes.count
      leadingGlyphs += 1
    }
    while !glyph.bytes.isEmpty && end - glyph.bytes.count >= start
      && matches(glyph.bytes, at: end - glyph.bytes.count)
    {
      end -= glyph.bytes.count
      trailingGlyphs += 1
    }
    newText = start..<end
    // UTF-8 synchronises on scalar starts, so a byte match of a whole scalar's
    // encoding is that scalar.
    for offset in start..<end where glyph.scalars.contains(where: { matches($0, at: offset) }) {
      newTextContainsGlyph = true
      break
    }
  }
}
