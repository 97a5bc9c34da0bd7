package import SecretField
package import SecureMemory

/// A prompt's field as the terminal shows it: key events into the field's
/// editor, and the lines under the field (the message, the caps-lock warning,
/// the hint).
///
/// It decides nothing about what a key does: the terminal's table
/// (``KeyEvent/fieldCommand``) names the command and ``FieldEditor`` applies
/// it. What it adds are the terminal's own keys (^Z suspends when
/// ``PromptConfiguration/allowsSuspend``, ^L redraws), the terminal's replies,
/// and a refusal put in the prompt's words (``PromptTexts``).
///
/// Pure: no I/O and no clock (time comes with each event), so tests feed it
/// events and read the field and the status lines.
package struct PromptField: ~Copyable {
  /// What the loop should do after an event.
  package struct Reaction: Sendable, Hashable {
    /// How the entry ends, when it does.
    package enum Outcome: Sendable, Hashable {
      /// Enter, with the field long enough: take the text.
      case submit
      /// A cancel key.
      case cancel(EntryCancellation)
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
  /// What each command does to the field.
  let editor: FieldEditor
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
  /// The strength of a new password (``PromptConfiguration/strength``).
  package var strengthLine: StrengthLine

  /// An editor with an empty field, masked with `configuration`'s glyph (or
  /// `locale`'s), showing ``PromptConfiguration/initialMessage``.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the field's
  ///   secure memory cannot be had.
  package init(configuration: PromptConfiguration, locale: TerminalLocale) throws(TerminalError) {
    self.init(
      configuration: configuration, locale: locale,
      field: try Self.makeField(configuration: configuration),
      strengthLine: try Self.makeStrengthLine(configuration: configuration, locale: locale))
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
        reservingCapacity: PromptBuffers.textCapacity(for: configuration.fieldLimits)),
      strengthLine: try Self.makeStrengthLine(configuration: configuration, locale: locale))
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
  /// `strengthLine` judges the entries (``makeStrengthLine(configuration:locale:)``).
  ///
  /// - Precondition: `field` has `configuration`'s limits.
  init(
    configuration: PromptConfiguration, locale: TerminalLocale,
    field: consuming SecretFieldState, strengthLine: consuming StrengthLine
  ) {
    precondition(
      field.limits == configuration.fieldLimits, "PromptField: a field of other limits")
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
    editor = FieldEditor(
      minimumLength: configuration.minimumLength, offersReveal: configuration.offersReveal)
    captureReason = configuration.isCaptured ? configuration.captureReason : nil
    self.configuration = configuration
    message = configuration.initialMessage
    hintSeparator = configuration.texts.hintSeparator ?? (locale.isUTF8 ? " · " : " | ")
    maskedHint = Self.hint(
      isRevealed: false, configuration: configuration, separator: hintSeparator)
    revealedHint = Self.hint(
      isRevealed: true, configuration: configuration, separator: hintSeparator)
    self.strengthLine = strengthLine
  }

  /// The strength line for `configuration`: one that judges by its
  /// ``PromptConfiguration/strength`` rules, or one that never judges.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when the
  ///   judge's scratch cannot be had.
  static func makeStrengthLine(
    configuration: PromptConfiguration, locale: TerminalLocale
  ) throws(TerminalError) -> StrengthLine {
    do {
      return try StrengthLine(
        rules: configuration.strength, storage: configuration.storage,
        label: configuration.texts.strength, isUTF8: locale.isUTF8)
    } catch {
      throw .secureMemory(error)
    }
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

  /// Starts a new entry: wipes the field and shows `message` (nil for none);
  /// `judgesStrength` false leaves the entry unjudged (a confirmation's
  /// second). Reveal state, focus, caps lock and capture stay.
  package mutating func startEntry(message: String?, judgesStrength: Bool = true) {
    field.clear()
    self.message = message
    strengthLine.reset(isActive: judgesStrength)
  }

  /// Judges the field in full, when the entry is judged: true when it is
  /// accepted (or not judged); else false, with every reason on the message
  /// line and the text kept, for Enter.
  package mutating func acceptsStrength() -> Bool {
    guard let strength = strengthLine.verdict(of: field), !strength.isAccepted else {
      return true
    }
    let reasons = strength.reasons.map(\.description).joined(separator: hintSeparator)
    message = configuration.texts.strengthRefusedMessage(reasons: reasons)
    return false
  }

  /// Judges the field again for the strength line, when an edit left it
  /// stale, within `budget`: for the prompt after the edit's frame.
  ///
  /// - Returns: true when the line changed, so a frame should show it.
  package mutating func judgeStrength(budget: StrengthBudget) -> Bool {
    guard strengthLine.isStale else { return false }
    return strengthLine.judge(field, budget: budget)
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
  /// - Complexity: that of the edit on the field (``FieldEditor``).
  package mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant
  ) -> Reaction {
    switch event {
    case .unknownSequence:
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
    if case .key = event, event.fieldCommand == nil { return Reaction() }
    // Every key the user pressed ends the message of the key before.
    message = nil
    switch event {
    case .suspend:
      var reaction = Reaction()
      if configuration.allowsSuspend {
        reaction.outcome = .suspend
      } else {
        reaction.ringsBell = true
      }
      return reaction
    case .redraw:
      var reaction = Reaction()
      reaction.redrawsAll = true
      return reaction
    default:
      break
    }
    if let refusal = event.fieldRefusal { return take(FieldEditor.Reaction(refusal: refusal)) }
    guard let command = event.fieldCommand else { return Reaction() }
    return perform(command, text: payload, at: now)
  }

  /// Applies `command` to the field with ``editor``, and puts a refusal in the
  /// prompt's words on the message line: for a front end's own key (a form's
  /// reveal key) as for the terminal's.
  package mutating func perform(
    _ command: FieldCommand,
    text: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    at now: ContinuousClock.Instant? = nil
  ) -> Reaction {
    take(editor.perform(command, on: &field, text: text, at: now))
  }

  /// Refuses a key the editor was not given, with `text` as the message
  /// and the bell (the prompt could not make room for what it would add).
  mutating func refuse(_ text: String) -> Reaction {
    message = text
    var reaction = Reaction()
    reaction.ringsBell = true
    return reaction
  }

  private mutating func take(_ reaction: FieldEditor.Reaction) -> Reaction {
    var taken = Reaction()
    taken.editedFrom = reaction.editedFrom
    if reaction.editedFrom != nil { strengthLine.fieldChanged() }
    switch reaction.conclusion {
    case .submit?:
      guard acceptsStrength() else {
        // Refused as a short entry is: the text stays, the reasons show.
        taken.ringsBell = true
        return taken
      }
      taken.outcome = .submit
    case .cancel(let cancellation)?: taken.outcome = .cancel(cancellation)
    case nil: break
    }
    if let refusal = reaction.refusal {
      taken.ringsBell = true
      // A reveal where none is offered only rings, as a terminal does.
      if refusal != .revealUnavailable { message = text(for: refusal) }
    }
    return taken
  }

  /// The message for a refusal, in the prompt's words.
  private func text(for refusal: FieldRefusal) -> String {
    let texts = configuration.texts
    switch refusal {
    case .invalidText: return texts.invalidText
    case .pasteWithLineBreak: return texts.pasteWithLineBreak
    case .pasteWithControlCharacter: return texts.pasteWithControlCharacter
    case .pasteTooLong: return texts.pasteTooLong
    case .pasteRefused: return texts.pasteRefused
    case .fieldFull: return texts.fieldFull
    case .tooShort(let minimum): return texts.tooShortMessage(minimum: minimum)
    case .revealRefused:
      return captureReason.map { texts.revealRefusedMessage(reason: $0) }
        ?? texts.revealRefusedWhileCaptured
    case .clipboardNotRead, .copyOrCutRefused, .revealUnavailable, .memoryUnavailable:
      return refusal.description
    }
  }

  // MARK: What to show under the field

  /// The lines under the field, top to bottom: the message, the caps-lock
  /// warning (when `line` says to show it), the strength line (when the entry
  /// is judged and holds text), `annotation` (a caller's own line, such as a
  /// pinentry's quality bar), and the hint.
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
    if let strength = strengthLine.text {
      lines.append(PromptStatusLine(strength, style: .warning))
    }
    if let annotation { lines.append(PromptStatusLine(annotation, style: .warning)) }
    if configuration.showsHint {
      lines.append(PromptStatusLine(line.isRevealed ? revealedHint : maskedHint, style: .hint))
    }
  }

  /// The most lines ``statusLines(for:annotation:)`` returns, so a renderer can
  /// make room for them once instead of scrolling while text is revealed.
  package func maximumStatusLineCount(annotating: Bool) -> Int {
    2 + (configuration.strength != nil ? 1 : 0) + (annotating ? 1 : 0)
      + (configuration.showsHint ? 1 : 0)
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
