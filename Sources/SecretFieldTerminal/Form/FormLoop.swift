import ScreenRecording
import SecretField
import SecureMemory

/// A ``TerminalForm`` on the terminal event loop: one ``PromptField`` and one
/// ``PromptRenderer`` per field, each field drawn on its own line by its
/// renderer as the prompt draws its one line, and the status lines of the
/// field in focus under the last one.
struct FormLoop {
  /// One field: its editor (the text in secure memory), the renderer of its
  /// line, and the buffers of that line's frames. A class, so that an array
  /// holds the noncopyable editor.
  final class Entry {
    let field: FormField
    var editor: PromptField
    var renderer: PromptRenderer
    var line: DisplayLine
    var cellColumns: [Int] = []
    var output = ScreenOutput()

    init(field: FormField, editor: consuming PromptField, renderer: PromptRenderer) {
      self.field = field
      self.editor = editor
      self.renderer = renderer
      line = self.editor.field.render(at: .now)
    }
  }

  let form: TerminalForm
  let entries: [Entry]
  var writer: ScreenWriter
  /// The field in focus.
  var focus: Int
  let deadline: ContinuousClock.Instant?
  var columns: Int
  /// The most status lines under the fields: a message, the caps-lock
  /// warning, the strength line when a field is judged, the hint.
  let statusCapacity: Int
  /// The region is on the screen: description shown, room made.
  var isDrawn = false
  /// The line the cursor is on, counted from the first field's.
  var cursorLine = 0
  /// Everything is drawn again at the next frame (^L, a resize).
  var redrawsAll = false
  /// The hint under the fields, while the field in focus is masked and while
  /// it is revealed.
  let maskedHint: String
  let revealedHint: String
  /// Stops, continues, the background and `fg`.
  var jobs = JobControl()
  var looksForRecorder: Bool
  /// A recorder was seen on the session: secret fields stay masked and refuse
  /// to reveal; the reason, for the message.
  var isRecorded = false
  var recordingReason: String?
  /// When a last-typed character stops showing, in any field.
  var revealEndsAt: ContinuousClock.Instant?

  init(form: TerminalForm, terminal: borrowing TerminalDevice) throws(TerminalError) {
    self.form = form
    let locale = form.locale ?? .current
    var entries: [Entry] = []
    for field in form.fields {
      var configuration = PromptConfiguration(prompt: field.label)
      configuration.texts = form.texts
      configuration.storage = form.storage
      configuration.showsHint = false
      configuration.timeout = nil
      switch field.kind {
      case .plain:
        configuration.obfuscationMode = .visible
        configuration.allowsReveal = false
        configuration.fieldPolicy = []
      case .secret:
        configuration.strength = field.strength
      }
      var editor = try PromptField(configuration: configuration, locale: locale)
      if case .plain(let initialText) = field.kind, !initialText.isEmpty {
        // Not secret: a plain field's text is the caller's own string.
        _ = Array(initialText.utf8).withUnsafeBytes {
          editor.handle(.paste, payload: $0, at: .now)
        }
      }
      let renderer = PromptRenderer(
        configuration: configuration, locale: locale, statusLineCapacity: 0)
      entries.append(Entry(field: field, editor: editor, renderer: renderer))
    }
    self.entries = entries
    focus = entries.firstIndex { $0.editor.field.isEmpty } ?? 0
    writer = ScreenWriter(terminal: terminal)
    deadline = form.timeout.map { ContinuousClock.now + $0 }
    columns = terminal.size?.columns ?? 80
    let separator = locale.isUTF8 ? " · " : " | "
    let revealKey = Self.name(of: form.revealKey)
    func hint(_ reveal: String) -> String {
      var parts = ["Tab next"]
      if form.fields.contains(where: \.isSecret) { parts.append(revealKey + " " + reveal) }
      parts += [form.texts.submit, form.texts.cancel]
      return parts.joined(separator: separator)
    }
    maskedHint = hint("show")
    revealedHint = hint("hide")
    looksForRecorder = form.detectsRecording
    statusCapacity = form.fields.contains { $0.isSecret && $0.strength != nil } ? 4 : 3
  }

  /// Runs the form to its end, which leaves every secret field masked and the
  /// cursor under the form; hands back the answers when submitted.
  mutating func run(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder
  ) throws(TerminalError) -> EntryOutcome<FormAnswers> {
    try draw()
    if looksForRecorder {
      let detection = terminal.detectRecording()
      if detection.isCaptured {
        isRecorded = true
        recordingReason = detection.reason
        for entry in entries where entry.field.isSecret {
          entry.editor.setCaptured(true, reason: detection.reason)
        }
        try draw()
      }
    }
    let end = try TerminalEventLoop.run(
      &self, terminal: &terminal, relay: relay, decoder: &decoder)
    guard let ending = end.ending else { return .submitted(try answers()) }
    wipe()
    return .ended(ending)
  }

  // MARK: Keys

  /// What a key does in the form, before the field in focus sees it.
  mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant
  ) throws(TerminalError) -> EntryOutcome<Void>? {
    switch event {
    case .tab, .key(.down, []):
      moveFocus(by: 1)
      return nil
    case .key(.tab, .shift), .key(.up, []):
      moveFocus(by: -1)
      return nil
    case form.revealKey:
      guard entries[focus].field.isSecret else {
        writer.append(ControlSequence.bell)
        return nil
      }
      return try take(entries[focus].editor.perform(.toggleReveal))
    case .submit:
      if focus < entries.count - 1 {
        moveFocus(by: 1)
        return nil
      }
      if let short = entries.firstIndex(where: { $0.editor.field.count < $0.field.minimumLength }) {
        focus = short
        entries[short].editor.showMessage(
          form.texts.tooShortMessage(minimum: entries[short].field.minimumLength))
        writer.append(ControlSequence.bell)
        return nil
      }
      // A new password the rules refuse takes the focus, with its reasons.
      if let weak = entries.firstIndex(where: { !$0.editor.acceptsStrength() }) {
        focus = weak
        writer.append(ControlSequence.bell)
        return nil
      }
      try finish()
      return .yes
    case .focusIn, .focusOut, .capsLock:
      // The terminal's focus and caps lock concern every field.
      for entry in entries { _ = entry.editor.handle(event, payload: payload, at: now) }
      return nil
    default:
      return try take(entries[focus].editor.handle(event, payload: payload, at: now))
    }
  }

  private mutating func take(
    _ reaction: PromptField.Reaction
  ) throws(TerminalError) -> EntryOutcome<Void>? {
    if reaction.ringsBell { writer.append(ControlSequence.bell) }
    if reaction.redrawsAll { redrawsAll = true }
    return try ending(of: reaction.outcome, submits: false)
  }

  private mutating func moveFocus(by step: Int) {
    focus = (focus + step + entries.count) % entries.count
  }

  // MARK: Drawing

  /// Draws what changed: the status lines of the field in focus, each field's
  /// line, and the cursor at the caret of the field in focus.
  mutating func draw() throws(TerminalError) {
    guard !jobs.isWaitingForForeground else { return }
    if !isDrawn { beginRegion() }
    let now = ContinuousClock.now
    revealEndsAt = nil
    let focused = entries[focus]
    // The status lines first, so that the field in focus is drawn last and
    // its renderer leaves the cursor at its caret.
    focused.editor.field.render(at: now, into: &focused.line)
    var status = focused.editor.statusLines(for: focused.line, annotation: nil)
    status.append(
      PromptStatusLine(
        focused.field.isSecret && focused.line.isRevealed ? revealedHint : maskedHint,
        style: .hint))
    move(toLine: entries.count)
    for (index, line) in status.prefix(statusCapacity).enumerated() {
      if index > 0 { writer.append(ControlSequence.newline) }
      writer.append(ControlSequence.carriageReturn)
      let text = DisplayText.truncated(DisplayText.sanitized(line.text), toColumns: columns - 1)
      writer.append(
        line.style == .hint ? ControlSequence.dim + text + ControlSequence.resetAttributes : text)
      writer.append(ControlSequence.eraseToEndOfLine)
    }
    writer.append(ControlSequence.newline + ControlSequence.eraseToEndOfScreen)
    cursorLine = entries.count + min(status.count, statusCapacity)
    for index in entries.indices where index != focus { try drawField(index, at: now) }
    try drawField(focus, at: now)
    redrawsAll = false
  }

  private mutating func drawField(_ index: Int, at now: ContinuousClock.Instant)
    throws(TerminalError)
  {
    let entry = entries[index]
    move(toLine: index)
    entry.editor.field.render(at: now, into: &entry.line)
    if let ends = entry.line.revealEndsAt { revealEndsAt = min(revealEndsAt ?? ends, ends) }
    entry.renderer.cellColumns(of: entry.line, in: entry.editor.field, into: &entry.cellColumns)
    // The cursor was elsewhere since this line's last frame: redraw the line
    // whole, so the renderer places every cell and then the caret.
    entry.renderer.invalidate()
    entry.renderer.draw(
      entry.line, cellColumns: entry.cellColumns, status: [], columns: columns,
      editedFrom: nil, redrawingAll: redrawsAll, into: &entry.output)
    try writer.write(entry.output, revealingFrom: entry.editor.field)
  }

  /// Shows the description and makes room for the fields and the status
  /// lines, so drawing them never scrolls a revealed field into the
  /// scrollback; the cursor ends on the first field's line.
  private mutating func beginRegion() {
    if let description = form.description {
      for line in description.split(separator: "\n", omittingEmptySubsequences: false) {
        writer.append(
          ControlSequence.carriageReturn + DisplayText.sanitized(String(line))
            + ControlSequence.eraseToEndOfLine + ControlSequence.newline)
      }
    }
    let below = entries.count - 1 + statusCapacity
    writer.append(String(repeating: ControlSequence.newline, count: below))
    writer.append(ControlSequence.cursorUp(below))
    cursorLine = 0
    for entry in entries { entry.renderer.startOnFreshLine() }
    isDrawn = true
  }

  private mutating func move(toLine line: Int) {
    if line > cursorLine { writer.append(ControlSequence.cursorDown(line - cursorLine)) }
    if line < cursorLine { writer.append(ControlSequence.cursorUp(cursorLine - line)) }
    cursorLine = line
  }

  /// Ends the form on the screen: every secret field drawn masked, the status
  /// lines erased, the cursor under the last field.
  mutating func finish() throws(TerminalError) {
    guard isDrawn else { return }
    for entry in entries where entry.field.isSecret { entry.editor.setCaptured(true) }
    let now = ContinuousClock.now
    for index in entries.indices { try drawField(index, at: now) }
    move(toLine: entries.count)
    writer.append(ControlSequence.carriageReturn + ControlSequence.eraseToEndOfScreen)
    try writer.flush()
    isDrawn = false
  }

  // MARK: Answers and secrets

  /// The plain fields' texts and the secret fields' bytes, copied into a
  /// table in secure memory; the fields are wiped after.
  func answers() throws(TerminalError) -> FormAnswers {
    defer { wipe() }
    var texts: [String: String] = [:]
    let secrets: SecretTable<String>
    do {
      secrets = try SecretTable(name: "TerminalForm", storage: form.storage)
      for entry in entries {
        if entry.field.isSecret {
          try entry.editor.field.withSecret { bytes throws(SecureMemoryError) in
            try secrets.insert(copying: bytes, for: entry.field.name)
          }
        } else {
          texts[entry.field.name] = entry.editor.field.withSecret {
            String(decoding: $0, as: UTF8.self)
          }
        }
      }
    } catch {
      throw .secureMemory(error)
    }
    return FormAnswers(texts: texts, secrets: secrets)
  }

  /// Wipes every field.
  func wipe() {
    for entry in entries { entry.editor.wipe() }
  }

  /// Leaves the screen masked after an error, as far as the terminal lets it,
  /// and wipes.
  mutating func abandon() {
    try? finish()
    wipe()
  }

  /// A key as the hint names it: `Ctrl+R`, `F2`.
  static func name(of key: KeyEvent) -> String {
    guard case .key(let key, let modifiers) = key else { return "Tab" }
    return KeyEvent.fieldKey(key, modifiers).description
  }
}

extension FormLoop: EntryEventHandler {
  var wakeTime: ContinuousClock.Instant? {
    TerminalEventLoop.earliest(
      TerminalEventLoop.earliest(deadline, revealEndsAt), jobs.foregroundCheck)
  }

  mutating func drawAfterForeground(terminal _: borrowing TerminalDevice) throws(TerminalError) {
    isDrawn = false
    try draw()
  }

  /// Judges the field in focus for its strength line when an edit left it
  /// stale: as the prompt does (``PromptLoop/judgeStrength(terminal:)``), after the
  /// edit's frame and only while no key waits, within
  /// `StrengthBudget.keystroke`.
  ///
  /// - Returns: true when the line changed and a frame should show it.
  mutating func judgeStrength(terminal: borrowing TerminalDevice) -> Bool {
    let entry = entries[focus]
    guard entry.editor.strengthLine.isStale, !jobs.isWaitingForForeground,
      case .success(let waiting) = Platform.poll(
        terminal.descriptor, -1, nil, timeoutMilliseconds: 0),
      waiting.readable == 0, !waiting.interrupted
    else { return false }
    return entry.editor.judgeStrength(budget: .keystroke)
  }

  mutating func woke(
    at now: ContinuousClock.Instant, readiness: Readiness
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    .redraw
  }

  mutating func handle(
    _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder: inout KeyDecoder
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    switch signal.response {
    case .die, .stop:
      // Nothing revealed stays behind, and the shell gets a fresh line.
      try? finish()
      if signal.response == .stop {
        // Masked for the stop; back as the session is once continued.
        for entry in entries where entry.field.isSecret {
          entry.editor.setCaptured(isRecorded, reason: recordingReason)
        }
      }
    case .resume, .resize:
      break
    }
    let entries = self.entries
    let resumption = try jobs.respond(
      to: signal, terminal: &terminal, relay: relay,
      wipingFirst: {
        for entry in entries { entry.editor.wipe() }
        decoder.reset()
      })
    columns = terminal.size?.columns ?? columns
    switch resumption {
    case .resumedAfterOwnStop:
      isDrawn = false
    case .continued(let afterOwnStop):
      if !afterOwnStop {
        // A stop it could not see (SIGSTOP): start afresh below what is there.
        writer.append(ControlSequence.newline)
        isDrawn = false
      }
      redrawsAll = true
    case .relayout:
      redrawsAll = true
    case .waitingForForeground:
      break
    }
    return .redraw
  }

  mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
    terminal: inout TerminalDevice
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    if let ending = try handle(event, payload: payload, at: now) { return .end(ending) }
    return .redraw
  }

  mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {
    try draw()
  }
}
