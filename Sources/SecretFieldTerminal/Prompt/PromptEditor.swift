package import SecretField
package import SecureMemory

/// The prompt's state machine, without a terminal: it takes decoded key events,
/// applies them to a `SecretFieldState`, and says what the loop
/// should do next (submit, cancel, ring the bell, redraw).
///
/// Pure: no I/O and no clock (time comes with each event), so tests feed it
/// events and read the field and the status lines. ``PasswordPrompt`` drives it
/// from the terminal; another front end (a pinentry's) can drive it too.
///
/// Key bindings: text and pastes insert; Backspace, Delete, ^U, ^K, ^W edit;
/// arrows, Home, End and ^A ^B ^E ^F move; Enter submits (refused below
/// ``PromptConfiguration/minimumLength``); Esc and ^C cancel, and so does ^D on
/// an empty field (on text it deletes forward, as in readline); Tab toggles the
/// reveal when ``PromptConfiguration/allowsReveal``; ^L redraws; ^Z suspends
/// (when ``PromptConfiguration/allowsSuspend``).
/// Keys it does not know change nothing. A refused key leaves the field as it
/// was, rings the bell and says why on the message line.
package struct PromptEditor: ~Copyable {
  /// What the loop should do after an event.
  package struct Reaction: Sendable, Hashable {
    /// How the entry ends, when it does.
    package enum Outcome: Sendable, Hashable {
      /// Enter, with the field long enough: take the text.
      case submit
      /// A cancel key.
      case cancel(PromptCancellation)
      /// ^Z: stop the process group, as the terminal's suspend key would.
      case suspend
    }

    /// How the entry ends; nil while it goes on.
    package var outcome: Outcome?
    /// The key was refused: ring the bell (the message says why).
    package var ringsBell = false
    /// ^L: draw everything again.
    package var redrawsAll = false
    /// The first character an edit may have changed, for a minimal redraw; nil
    /// when the text did not change.
    package var editedFrom: Int?
    /// A terminal's reply (``KeyEvent/keyboardFlags(_:)``,
    /// ``KeyEvent/deviceAttributes``), for whoever sent the query.
    package var terminalReply: KeyEvent?

    /// Nothing to do.
    package init() {}
  }

  /// The field: the text in secure memory, the caret, how it shows.
  package private(set) var field: SecretFieldState
  /// The message under the field, until the next key; nil when there is none.
  package private(set) var message: String?
  /// What the prompt was asked to do.
  package let configuration: PromptConfiguration
  /// Why the session counts as captured, for the message when reveal is
  /// refused; nil when not captured or not known.
  package private(set) var captureReason: String?
  /// What joins the parts of the hint.
  let hintSeparator: String
  /// The hint line while masked and while revealed, joined once: a frame
  /// takes them without building a string.
  let maskedHint: String
  let revealedHint: String

  /// An editor with an empty field, masked with `configuration`'s glyph (or
  /// `locale`'s), showing ``PromptConfiguration/initialMessage``.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the field's
  ///   secure memory cannot be had.
  package init(configuration: PromptConfiguration, locale: TerminalLocale) throws(TerminalError) {
    self.init(
      configuration: configuration, locale: locale,
      field: try Self.makeField(configuration: configuration))
  }

  /// An editor with an empty field whose text is a buffer of `region`, as
  /// ``init(configuration:locale:)`` otherwise: for a key path whose decoder
  /// shares the region (`KeyDecoder.init(configuration:sharing:)`), so the
  /// field's edit inside the decoder's window changes no page protection.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the region
  ///   has no room and the field's secure memory cannot be had.
  /// Make `region` with ``makeSharedRegion(configuration:)``: the field
  /// reserves the room that sizes it for.
  package init(
    configuration: PromptConfiguration, locale: TerminalLocale, sharing region: SharedSecureRegion
  ) throws(TerminalError) {
    self.init(
      configuration: configuration, locale: locale,
      field: try Self.makeField(
        configuration: configuration, sharing: region,
        reservingCapacity: PromptBuffers.textCapacity(for: configuration.fieldLimits)))
  }

  /// A region for the field of an editor of `configuration` and a decoder's
  /// input, sized as the prompt sizes it: the field's text first (what fills
  /// one page beside the input: 3,792 bytes, or less when the field's limits
  /// reserve less), then ``KeyDecoder/inputCapacity`` bytes, so each window's
  /// protection pair covers one page.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when secure
  ///   memory cannot be had.
  package static func makeSharedRegion(
    configuration: PromptConfiguration
  ) throws(TerminalError) -> SharedSecureRegion {
    do {
      return try SharedSecureRegion(
        holding: [
          PromptBuffers.textCapacity(for: configuration.fieldLimits), KeyDecoder.inputCapacity,
        ], storage: configuration.storage)
    } catch {
      throw .secureMemory(error)
    }
  }

  /// An editor on `field`, a kept one (``PromptResources``) or one from
  /// ``makeField(configuration:sharing:)``: empty, and set as a new field of
  /// `configuration` would be (policy, mask glyph, obfuscation mode, focus,
  /// caps lock, capture), whatever the last prompt left in it.
  ///
  /// - Precondition: `field` has `configuration`'s limits.
  init(
    configuration: PromptConfiguration, locale: TerminalLocale,
    field: consuming SecretFieldState
  ) {
    precondition(
      field.limits == configuration.fieldLimits, "PromptEditor: a field of other limits")
    let glyph: Character =
      if case .masked(let glyph?) = configuration.echo { glyph } else {
        Character(locale.maskGlyph)
      }
    // A kept field was wiped when it was kept, a new one is empty: a clear
    // costs a protection pair on the whole buffer, only where text is left.
    if !field.isEmpty { field.clear() }
    field.isCaptured = false
    field.policy = configuration.fieldPolicy
    field.maskGlyph = glyph
    // Through .hidden first: the masked mode Tab returns to is then what a
    // new field of this mode has. Not refused: the field is not captured yet.
    try? field.setObfuscationMode(.hidden)
    try? field.setObfuscationMode(configuration.obfuscationMode)
    field.isFocused = true
    field.capsLock = .unknown
    field.isCaptured = configuration.isCaptured
    self.field = field
    captureReason = configuration.isCaptured ? configuration.captureReason : nil
    self.configuration = configuration
    message = configuration.initialMessage
    hintSeparator = configuration.texts.hintSeparator ?? (locale.isUTF8 ? " · " : " | ")
    maskedHint = Self.hint(
      isRevealed: false, configuration: configuration, separator: hintSeparator)
    revealedHint = Self.hint(
      isRevealed: true, configuration: configuration, separator: hintSeparator)
  }

  /// A new, empty field for `configuration` (its limits, policy, mode and
  /// storage), for ``init(configuration:locale:field:)``; its text in `region`
  /// when one is given (`PromptBuffers`).
  static func makeField(
    configuration: PromptConfiguration, sharing region: SharedSecureRegion? = nil,
    reservingCapacity: Int? = nil
  ) throws(TerminalError) -> SecretFieldState {
    do {
      if let region {
        return try SecretFieldState(
          policy: configuration.fieldPolicy, limits: configuration.fieldLimits,
          obfuscationMode: configuration.obfuscationMode, sharing: region,
          reservingCapacity: reservingCapacity)
      }
      return try SecretFieldState(
        policy: configuration.fieldPolicy, limits: configuration.fieldLimits,
        obfuscationMode: configuration.obfuscationMode, storage: configuration.storage)
    } catch {
      throw .secureMemory(error)
    }
  }

  /// Ends the editor and hands its field back, wiped (every byte of its
  /// buffer), to be kept for the next prompt.
  consuming func takeField() -> SecretFieldState {
    field.clear()
    return field
  }

  // MARK: Entries and host state

  /// Starts a new entry: wipes the field and shows `message` (nil for none).
  /// Reveal state, focus, caps lock and capture stay.
  package mutating func startEntry(message: String?) {
    field.clear()
    self.message = message
  }

  /// Wipes the text, for a prompt that ends without taking it.
  package mutating func wipe() {
    field.clear()
  }

  /// Sets whether the session is recorded or shared; while it is, the field
  /// is masked and Tab is refused with a message, which gives `reason` (as in
  /// "asciinema is recording this terminal") when there is one. For a capture
  /// detector that learns of a recording while the prompt runs.
  package mutating func setCaptured(_ isCaptured: Bool, reason: String? = nil) {
    field.isCaptured = isCaptured
    captureReason = isCaptured ? reason : nil
  }

  /// Shows `text` on the message line until the next key, or clears it.
  package mutating func showMessage(_ text: String?) {
    message = text
  }

  // MARK: Events

  /// Applies one event. `payload` holds the bytes of a ``KeyEvent/text`` or
  /// ``KeyEvent/paste`` event, lent from the decoder's secure memory (inside
  /// its window, ``KeyDecoder/decode(at:handling:)``, or by
  /// ``KeyDecoder/withPayload(_:)``); it is read in place, never copied out.
  ///
  /// - Complexity: that of the edit on the field; a paste is also scanned once
  ///   for line breaks (and the stack wiped after).
  package mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant
  ) -> Reaction {
    switch event {
    case .unknownSequence, .key:
      return Reaction()
    case .focusIn, .focusOut:
      field.isFocused = event == .focusIn
      return Reaction()
    case .capsLock(let isOn):
      field.capsLock = isOn ? .on : .off
      return Reaction()
    case .keyboardFlags, .deviceAttributes:
      var reaction = Reaction()
      reaction.terminalReply = event
      return reaction
    default:
      break
    }
    // Every key the user pressed ends the message of the key before.
    message = nil
    switch event {
    case .text:
      return insert(payload, at: now)
    case .paste:
      return paste(payload)
    case .pasteTooLong:
      return refused(configuration.texts.pasteTooLong)
    case .invalidText:
      return refused(configuration.texts.invalidText)
    case .submit:
      if field.count < configuration.minimumLength {
        return refused(configuration.texts.tooShortMessage(minimum: configuration.minimumLength))
      }
      return ending(.submit)
    case .cancel:
      return ending(.cancel(.interrupt))
    case .escape:
      return ending(.cancel(.escape))
    case .endOfInput:
      if field.isEmpty { return ending(.cancel(.endOfInput)) }
      return edit { $0.deleteForward() }
    case .suspend:
      guard configuration.allowsSuspend else {
        var reaction = Reaction()
        reaction.ringsBell = true
        return reaction
      }
      return ending(.suspend)
    case .redraw:
      var reaction = Reaction()
      reaction.redrawsAll = true
      return reaction
    case .tab:
      return toggleReveal()
    case .deleteBackward: return edit { $0.deleteBackward() }
    case .deleteForward: return edit { $0.deleteForward() }
    case .deleteToStart: return edit { $0.deleteToStart() }
    case .deleteToEnd: return edit { $0.deleteToEnd() }
    case .deleteWordBackward: return edit { $0.deleteWordBackward() }
    case .moveLeft: return move(.left)
    case .moveRight: return move(.right)
    case .moveWordLeft: return move(.wordLeft)
    case .moveWordRight: return move(.wordRight)
    case .moveToStart: return move(.start)
    case .moveToEnd: return move(.end)
    case .unknownSequence, .key, .focusIn, .focusOut, .capsLock, .keyboardFlags,
      .deviceAttributes:
      preconditionFailure("PromptEditor: handled above")
    }
  }

  private func ending(_ outcome: Reaction.Outcome) -> Reaction {
    var reaction = Reaction()
    reaction.outcome = outcome
    return reaction
  }

  /// Refuses a key the editor was not given, with `text` as the message
  /// and the bell (the prompt could not make room for what it would add).
  mutating func refuse(_ text: String) -> Reaction { refused(text) }

  private mutating func refused(_ text: String) -> Reaction {
    message = text
    var reaction = Reaction()
    reaction.ringsBell = true
    return reaction
  }

  private mutating func move(_ movement: CaretMovement) -> Reaction {
    field.moveCaret(movement)
    return Reaction()
  }

  private mutating func edit(_ body: (inout SecretFieldState) -> Void) -> Reaction {
    let selectionStart = field.selection.lowerBound
    body(&field)
    var reaction = Reaction()
    // An edit changes characters from the selection (or the caret) on, and may
    // join the character before it (a combining mark typed after a letter).
    reaction.editedFrom = max(0, min(selectionStart, field.caret) - 1)
    return reaction
  }

  private mutating func insert(
    _ payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant
  ) -> Reaction {
    guard !payload.isEmpty else { return Reaction() }
    var failure: FieldError?
    let reaction = edit { field in
      do throws(FieldError) { try field.insert(payload, at: now) } catch { failure = error }
    }
    if let failure { return refused(text(for: failure, pasting: false)) }
    return reaction
  }

  private mutating func paste(_ payload: UnsafeRawBufferPointer) -> Reaction {
    let shape = PasteShape(of: payload)
    wipeStack()
    if shape.hasLineBreakInside { return refused(configuration.texts.pasteWithLineBreak) }
    let content = UnsafeRawBufferPointer(rebasing: payload[0..<shape.contentCount])
    guard !content.isEmpty else { return Reaction() }
    var failure: FieldError?
    let reaction = edit { field in
      do throws(FieldError) { try field.paste(content) } catch { failure = error }
    }
    if let failure { return refused(text(for: failure, pasting: true)) }
    return reaction
  }

  private mutating func toggleReveal() -> Reaction {
    guard configuration.offersReveal else {
      var reaction = Reaction()
      reaction.ringsBell = true
      return reaction
    }
    do {
      try field.toggleReveal()
    } catch {
      return refused(text(for: error, pasting: false))
    }
    return Reaction()
  }

  /// The message for a refusal, in the prompt's words where it has them.
  private func text(for error: FieldError, pasting: Bool) -> String {
    let texts = configuration.texts
    switch error.code {
    case FieldError.Code.invalidUTF8: return texts.invalidText
    case FieldError.Code.controlCharacter:
      return pasting ? texts.pasteWithControlCharacter : texts.invalidText
    case FieldError.Code.tooManyBytes, FieldError.Code.tooManyCharacters:
      return pasting ? texts.pasteTooLong : texts.fieldFull
    case FieldError.Code.pasteRefused: return texts.pasteRefused
    case FieldError.Code.revealRefused:
      return captureReason.map { texts.revealRefusedMessage(reason: $0) }
        ?? texts.revealRefusedWhileCaptured
    default: return error.description
    }
  }

  // MARK: What to show under the field

  /// The lines under the field, top to bottom: the message, the caps-lock
  /// warning (when `line` says to show it), `annotation` (a caller's own line,
  /// such as a pinentry's quality bar), and the hint.
  package func statusLines(for line: DisplayLine, annotation: String? = nil) -> [PromptStatusLine] {
    var lines: [PromptStatusLine] = []
    statusLines(for: line, annotation: annotation, into: &lines)
    return lines
  }

  /// Puts ``statusLines(for:annotation:)``'s lines in `lines`, reusing its
  /// buffer: with room for them, nothing is allocated (the texts are the
  /// editor's own, shared).
  package func statusLines(
    for line: DisplayLine, annotation: String?, into lines: inout [PromptStatusLine]
  ) {
    lines.removeAll(keepingCapacity: true)
    if let message { lines.append(PromptStatusLine(message, style: .message)) }
    if line.showsCapsLockHint {
      lines.append(PromptStatusLine(configuration.texts.capsLock, style: .warning))
    }
    if let annotation { lines.append(PromptStatusLine(annotation, style: .warning)) }
    if configuration.showsHint {
      lines.append(PromptStatusLine(line.isRevealed ? revealedHint : maskedHint, style: .hint))
    }
  }

  /// The most lines ``statusLines(for:annotation:)`` returns, so a renderer can
  /// make room for them once instead of scrolling while text is revealed.
  package func maximumStatusLineCount(annotating: Bool) -> Int {
    2 + (annotating ? 1 : 0) + (configuration.showsHint ? 1 : 0)
  }

  private static func hint(
    isRevealed: Bool, configuration: PromptConfiguration, separator hintSeparator: String
  ) -> String {
    let texts = configuration.texts
    var parts: [String] = []
    if configuration.offersReveal {
      parts.append(isRevealed ? texts.hide : texts.reveal)
    } else if configuration.echo == .silent {
      parts.append(texts.silentTyping)
    }
    parts += [texts.submit, texts.cancel]
    return parts.joined(separator: hintSeparator)
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
