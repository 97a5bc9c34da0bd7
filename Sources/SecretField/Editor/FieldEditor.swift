import SecureMemory

/// What every editing key does to a password field, for every front end: the
/// terminal prompt, the form and the window send ``FieldCommand``s and draw
/// the field; the editor applies them to the ``SecretFieldState`` it is given
/// and says what happened.
///
/// Pure: no I/O and no clock (the time of a key comes with it), so what a key
/// does is tested here once, with no terminal and no display.
///
/// A refused command leaves the field exactly as it was and says why
/// (``Reaction/refusal``): a paste with a line break, text past the limits, a
/// copy or a cut, a reveal while the screen is recorded, Enter on a field
/// shorter than ``minimumLength``.
///
/// ```swift
/// var field = try SecretFieldState()
/// let editor = FieldEditor(minimumLength: 8)
/// let reaction = editor.perform(.submit, on: &field)
/// // reaction.refusal == .tooShort(minimum: 8); the field is as it was
/// ```
public struct FieldEditor: Sendable, Hashable {
  /// What a front end does after a command.
  public struct Reaction: Sendable, Hashable {
    /// How the entry ends, when it does.
    public enum Conclusion: Sendable, Hashable {
      /// Take the text.
      case submit
      /// End without it.
      case cancel(EntryCancellation)
    }

    /// How the entry ends; nil while it goes on.
    public var conclusion: Conclusion?
    /// Why the command was refused; nil when it was not. The front end rings
    /// its bell and shows the reason.
    public var refusal: FieldRefusal?
    /// The first character an edit may have changed, for a redraw of only
    /// what changed; nil when the text did not change.
    public var editedFrom: Int?

    /// Nothing to do.
    public init() {}

    /// A refusal: the field stays as it is.
    public init(refusal: FieldRefusal) {
      self.refusal = refusal
    }
  }

  /// The fewest characters ``FieldCommand/submit`` takes.
  public var minimumLength: Int
  /// Whether ``FieldCommand/toggleReveal`` may show the text.
  public var offersReveal: Bool

  /// An editor that submits from `minimumLength` characters and reveals when
  /// `offersReveal`.
  public init(minimumLength: Int = 0, offersReveal: Bool = true) {
    self.minimumLength = minimumLength
    self.offersReveal = offersReveal
  }

  /// Applies `command` to `field`. `text` holds the bytes of an
  /// ``FieldCommand/insert`` or ``FieldCommand/paste``, lent from the front
  /// end's secure memory; they are read in place, never copied out. `now` is
  /// when the key came, for a last-typed reveal.
  ///
  /// - Complexity: that of the edit on the field; a paste is also scanned once
  ///   for line breaks, and the stack wiped after.
  public func perform(
    _ command: FieldCommand, on field: inout SecretFieldState,
    text: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    at now: ContinuousClock.Instant? = nil
  ) -> Reaction {
    switch command {
    case .insert: return insert(text, into: &field, at: now)
    case .paste: return paste(text, into: &field)
    case .deleteBackward: return edit(&field) { $0.deleteBackward() }
    case .deleteForward: return edit(&field) { $0.deleteForward() }
    case .deleteWordBackward: return edit(&field) { $0.deleteWordBackward() }
    case .deleteToStart: return edit(&field) { $0.deleteToStart() }
    case .deleteToEnd: return edit(&field) { $0.deleteToEnd() }
    case .move(let movement, let extending):
      field.moveCaret(movement, extendingSelection: extending)
      return Reaction()
    case .selectAll:
      field.selectAll()
      return Reaction()
    case .copy, .cut: return Reaction(refusal: .copyOrCutRefused)
    case .pasteFromClipboard: return Reaction(refusal: .clipboardNotRead)
    case .toggleReveal: return toggleReveal(&field)
    case .submit:
      if field.count < minimumLength {
        return Reaction(refusal: .tooShort(minimum: minimumLength))
      }
      return conclude(.submit)
    case .cancel(let cancellation): return conclude(.cancel(cancellation))
    case .endOfInput:
      if field.isEmpty { return conclude(.cancel(.endOfInput)) }
      return edit(&field) { $0.deleteForward() }
    }
  }

  private func conclude(_ conclusion: Reaction.Conclusion) -> Reaction {
    var reaction = Reaction()
    reaction.conclusion = conclusion
    return reaction
  }

  private func edit(
    _ field: inout SecretFieldState, _ body: (inout SecretFieldState) -> Void
  ) -> Reaction {
    let selectionStart = field.selection.lowerBound
    body(&field)
    var reaction = Reaction()
    // An edit changes characters from the selection (or the caret) on, and may
    // join the character before it (a combining mark typed after a letter).
    reaction.editedFrom = max(0, min(selectionStart, field.caret) - 1)
    return reaction
  }

  private func insert(
    _ text: UnsafeRawBufferPointer, into field: inout SecretFieldState,
    at now: ContinuousClock.Instant?
  ) -> Reaction {
    guard !text.isEmpty else { return Reaction() }
    var failure: FieldError?
    let reaction = edit(&field) { field in
      do throws(FieldError) { try field.insert(text, at: now) } catch { failure = error }
    }
    if let failure { return Reaction(refusal: Self.refusal(for: failure, pasting: false)) }
    return reaction
  }

  private func paste(_ text: UnsafeRawBufferPointer, into field: inout SecretFieldState) -> Reaction
  {
    let shape = PasteShape(of: text)
    wipeStack()
    if shape.hasLineBreakInside { return Reaction(refusal: .pasteWithLineBreak) }
    let content = UnsafeRawBufferPointer(rebasing: text[0..<shape.contentCount])
    guard !content.isEmpty else { return Reaction() }
    var failure: FieldError?
    let reaction = edit(&field) { field in
      do throws(FieldError) { try field.paste(content) } catch { failure = error }
    }
    if let failure { return Reaction(refusal: Self.refusal(for: failure, pasting: true)) }
    return reaction
  }

  private func toggleReveal(_ field: inout SecretFieldState) -> Reaction {
    guard offersReveal else { return Reaction(refusal: .revealUnavailable) }
    do {
      try field.toggleReveal()
    } catch {
      return Reaction(refusal: Self.refusal(for: error, pasting: false))
    }
    return Reaction()
  }

  private static func refusal(for error: FieldError, pasting: Bool) -> FieldRefusal {
    switch error.code {
    case FieldError.Code.invalidUTF8: return .invalidText
    case FieldError.Code.controlCharacter:
      return pasting ? .pasteWithControlCharacter : .invalidText
    case FieldError.Code.tooManyBytes, FieldError.Code.tooManyCharacters:
      return pasting ? .pasteTooLong : .fieldFull
    case FieldError.Code.pasteRefused: return .pasteRefused
    case FieldError.Code.revealRefused: return .revealRefused
    case FieldError.Code.copyRefused, FieldError.Code.cutRefused: return .copyOrCutRefused
    default: return .memoryUnavailable
    }
  }
}

/// Where a paste's content ends and whether a line break is inside it, found
/// by reading the pasted bytes (secret) in place: the caller wipes the stack.
struct PasteShape {
  /// The bytes to insert: all but one trailing line break (LF, CR or CR LF).
  var contentCount: Int
  /// A line break remains in the content.
  var hasLineBreakInside = false

  @inline(never)
  init(of bytes: UnsafeRawBufferPointer) {
    var end = bytes.count
    if end > 0 && bytes[end - 1] == 0x0A { end -= 1 }
    if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
    contentCount = end
    for offset in 0..<end where bytes[offset] == 0x0A || bytes[offset] == 0x0D {
      hasLineBreakInside = true
      break
    }
  }
}
