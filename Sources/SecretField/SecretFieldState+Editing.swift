import SecureMemory

extension SecretFieldState {
  /// Inserts typed text, replacing the selection; the caret ends after it.
  ///
  /// `utf8` is read in place (for a terminal: inside the read window of the
  /// secure buffer its bytes arrived in) and copied into the field's buffer by
  /// `SecureBuffer.replaceSubrange`, never through ordinary memory. A combining
  /// mark joins the character before it, so ``count`` may stay the same.
  ///
  /// Under ``ObfuscationMode/revealLastTyped(_:)``, when `utf8` forms exactly one
  /// character, the field is focused and not masked for capture, the character
  /// before the caret shows until `now` plus the mode's duration. Without `now`
  /// nothing is revealed. Text of several characters is treated like a paste.
  ///
  /// - Parameters:
  ///   - utf8: the text, as UTF-8.
  ///   - now: when it was typed, for the last-typed reveal.
  /// - Throws: ``FieldError`` for invalid UTF-8, a control character (C0, DEL,
  ///   C1), text past ``limits``, or secure memory that cannot grow. The field is
  ///   then unchanged.
  /// - Complexity: O(`utf8.count` + the character before the caret) when typing
  ///   at the end; O(characters after the caret) elsewhere, as their bytes move.
  public mutating func insert(
    _ utf8: UnsafeRawBufferPointer, at now: ContinuousClock.Instant? = nil
  ) throws(FieldError) {
    try edit(selection, replacingWith: utf8, kind: .typed(now))
  }

  /// Pastes text, replacing the selection, as one edit: the caret ends after it
  /// and nothing of it is revealed as last typed.
  ///
  /// - Throws: ``FieldError`` under ``FieldPolicy/noPaste``, and as
  ///   ``insert(_:at:)-(UnsafeRawBufferPointer,_)`` does. The field is then unchanged.
  public mutating func paste(_ utf8: UnsafeRawBufferPointer) throws(FieldError) {
    guard !policy.contains(.noPaste) else { throw .pasteRefused }
    try edit(selection, replacingWith: utf8, kind: .pasted)
  }

  /// Deletes the selection, or else the whole character before the caret (a
  /// family emoji, a flag, "e" with its accent).
  public mutating func deleteBackward() {
    deleteSelection(orElse: max(caret - 1, 0)..<caret)
  }

  /// Deletes the selection, or else the whole character after the caret.
  public mutating func deleteForward() {
    deleteSelection(orElse: caret..<min(caret + 1, count))
  }

  /// Deletes the selection, or else everything before the caret.
  public mutating func deleteToStart() {
    deleteSelection(orElse: 0..<caret)
  }

  /// Deletes the selection, or else everything after the caret.
  public mutating func deleteToEnd() {
    deleteSelection(orElse: caret..<count)
  }

  /// Deletes the selection, or else back to the start of the word before the
  /// caret. While masked the whole content is one word, so this deletes to the
  /// start: word boundaries would show where the spaces and symbols are.
  public mutating func deleteWordBackward() {
    deleteSelection(orElse: wordStart(before: caret)..<caret)
  }

  private mutating func deleteSelection(orElse fallback: Range<Int>) {
    let range = selection.isEmpty ? fallback : selection
    // Deleting never grows the buffer and takes no input, so it cannot fail.
    try! edit(range, replacingWith: UnsafeRawBufferPointer(start: nil, count: 0), kind: .deletion)
  }

  /// What an edit is, for the last-typed reveal.
  enum EditKind {
    case typed(ContinuousClock.Instant?)
    case pasted
    case deletion
  }

  /// Replaces characters `range` with `replacement`, moves the caret after it and
  /// collapses the selection there. All edits come here.
  ///
  /// The caret ends at the first character boundary at or after the end of the
  /// inserted bytes: after the character they became part of, when they joined
  /// one that follows (an "e" typed before a combining accent).
  mutating func edit(
    _ range: Range<Int>, replacingWith replacement: UnsafeRawBufferPointer, kind: EditKind
  ) throws(FieldError) {
    // A deletion to the end is planned from the index alone and its bytes are
    // wiped by `sodium_memzero`: no secret byte passes through Swift code, so
    // there is nothing on the stack to wipe (a backspace at the end saves a
    // 16 KiB `sodium_stackzero`). Every other edit decodes secret bytes.
    let readsText = replacement.count > 0 || range.upperBound != count
    let outcome = applyEdit(range, replacement, kind)
    if readsText { wipeStack() }
    try outcome.get()
  }

  /// The work of ``edit(_:replacingWith:kind:)``, in its own frame so that
  /// `wipeStack()` in the caller clears what decoding left on the stack.
  @inline(never)
  private mutating func applyEdit(
    _ range: Range<Int>, _ replacement: UnsafeRawBufferPointer, _ kind: EditKind
  ) -> Result<Void, FieldError> {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecretFieldState: range \(range) out of bounds for \(count) characters")
    var typedClusters = 0
    var isPrintableASCII = false
    if replacement.count > 0 {
      let inspection = UTF8Scalars.inspect(replacement)
      switch inspection.problem {
      case .invalidUTF8: return .failure(.invalidUTF8)
      case .controlCharacter: return .failure(.controlCharacter)
      case nil:
        typedClusters = inspection.clusterCount
        isPrintableASCII = inspection.isPrintableASCII
      }
    }
    let bytes = index.byteRange(of: range)
    if replacement.count > 0 && index.byteCount - bytes.count + replacement.count > limits.maxBytes
    {
      return .failure(.tooManyBytes(limit: limits.maxBytes))
    }
    // Every edit is one pair of protection changes: typing ASCII or deleting at
    // the end is planned from the index alone, anything else is planned from
    // the old bytes inside the write window that makes it.
    let characterLimit = replacement.count > 0 ? limits.maxCharacters : Int.max
    let planned = Self.replace(
      range, bytes, in: &text, with: replacement, planningWith: &index,
      replacementIsPrintableASCII: isPrintableASCII, characterLimit: characterLimit)
    let splice: ClusterIndex.Splice
    switch planned {
    case .success(let planned): splice = planned
    case .failure(let error): return .failure(error)
    }
    index.apply(splice)
    caret = index.firstBoundary(atOrAfter: bytes.lowerBound + replacement.count)
    anchor = caret
    lastTyped = nil
    if case .typed(let now?) = kind, typedClusters == 1, caret > 0,
      case .revealLastTyped(let duration) = obfuscationMode, isFocused, !isMaskedForCapture
    {
      lastTyped = LastTyped(index: caret - 1, until: now + duration)
    }
    return .success(())
  }

  /// Plans the splice of the index for replacing characters `range` (bytes
  /// `bytes`) with `replacement`, and replaces the bytes, in one write window on
  /// `text`; nothing changes when the edit would pass `characterLimit`.
  private static func replace(
    _ range: Range<Int>, _ bytes: Range<Int>, in text: inout SecureBuffer,
    with replacement: UnsafeRawBufferPointer, planningWith index: inout ClusterIndex,
    replacementIsPrintableASCII: Bool, characterLimit: Int
  ) -> Result<ClusterIndex.Splice, FieldError> {
    if let splice = index.planAtEndWithoutReading(
      of: range, replacementCount: replacement.count,
      replacementIsPrintableASCII: replacementIsPrintableASCII)
    {
      if splice.newCharacterCount > characterLimit {
        return .failure(.tooManyCharacters(limit: characterLimit))
      }
      do { try text.replaceSubrange(bytes, with: replacement) } catch {
        return .failure(.memoryUnavailable(error))
      }
      return .success(splice)
    }
    var planned: ClusterIndex.Splice?
    do throws(AppendError<FieldError>) {
      try text.replaceSubrange(bytes, with: replacement) { old throws(FieldError) in
        let splice = index.planReplacement(of: range, in: old, with: replacement)
        if splice.newCharacterCount > characterLimit {
          throw .tooManyCharacters(limit: characterLimit)
        }
        planned = splice
      }
    } catch {
      switch error {
      case .memory(let error): return .failure(.memoryUnavailable(error))
      case .body(let error): return .failure(error)
      }
    }
    return .success(planned!)
  }
}
