import ScreenRecording
import SecretField
import SecureMemory

/// A ``PasswordPrompt`` on the ``TerminalEventLoop``: key events into the
/// editor, frames out to the screen, entries and confirmation around them.
///
/// Holds everything but the terminal, the relay and the decoder, which the
/// loop's functions take as separate arguments: a signal's wipe closure then
/// reaches the field and the decoder while the relay holds the terminal.
struct PromptLoop: ~Copyable {
  var editor: PromptField
  var renderer: PromptRenderer
  var writer: ScreenWriter
  /// The last frame's line, widths and screen bytes, kept for their buffers:
  /// a key drawn into them allocates nothing (see ``PromptRenderer``).
  var line: DisplayLine
  var cellColumns: [Int] = []
  var statusLines: [PromptStatusLine] = []
  var output = ScreenOutput()
  /// What masks the line again, prepared while it shows revealed text, for
  /// the fault handler (``FaultRestore/publishMask(_:)``).
  var faultMask = ScreenOutput()
  let configuration: PromptConfiguration
  /// When the whole prompt times out.
  let deadline: ContinuousClock.Instant?
  /// The first entry of a confirmation, while the second is typed.
  var firstEntry: SecureBuffer?
  /// The terminal's width and height.
  var columns: Int
  var rows: Int?
  /// Edits and requests since the last frame.
  var editedFrom: Int?
  var redrawsAll = false
  /// The caller's line under the field, from the last edit.
  var annotation: String?
  var needsAnnotation = true
  /// When a last-typed character stops showing, if one shows.
  var revealEndsAt: ContinuousClock.Instant?
  /// Stops, continues, the background and `fg`.
  var jobs = JobControl()
  /// Whether the terminal speaks the kitty keyboard protocol (caps lock).
  var handshake: KeyboardProtocolHandshake
  /// Looks for a recorder once the prompt is on the screen: the look reads
  /// `/proc` for every ancestor (about 0.25 ms, more inside tmux), and it only
  /// decides whether Tab may reveal, which no key can ask before it is done.
  var looksForRecorderAfterFirstDraw = false
  /// The caller's work once the prompt is on the screen (see
  /// ``PasswordPrompt/run(annotatingEdits:afterFirstDraw:withdrawal:reusing:beforeRestoring:)``);
  /// called once.
  var afterFirstDraw: (() -> Void)?
  /// How the caller may take the question back while it is asked.
  var withdrawal: PromptWithdrawal?
  /// The caller's annotation of each edit, for the entry being run.
  var annotate: PromptAnnotation?
  /// What an annotation's wait watches: the terminal and the relay's pipe,
  /// for the entry being run.
  var wakeDescriptors: [Int32] = []
  /// What Enter hands the answer over in, made before the first key.
  var answers = PromptAnswers()

  init(
    configuration: PromptConfiguration, locale: TerminalLocale,
    terminal: borrowing TerminalDevice, annotates: Bool, field: consuming SecretFieldState? = nil
  ) throws(TerminalError) {
    var field = field
    let strengthLine = try PromptField.makeStrengthLine(
      configuration: configuration, locale: locale)
    if field == nil { field = try PromptField.makeField(configuration: configuration) }
    editor = PromptField(
      configuration: configuration, locale: locale, field: field.take()!,
      strengthLine: strengthLine)
    renderer = PromptRenderer(
      configuration: configuration, locale: locale,
      statusLineCapacity: editor.maximumStatusLineCount(annotating: annotates))
    writer = ScreenWriter(terminal: terminal)
    line = editor.field.render(at: .now)
    self.configuration = configuration
    deadline = configuration.timeout.map { ContinuousClock.now + $0 }
    columns = terminal.size?.columns ?? 80
    rows = terminal.size?.rows
    handshake = KeyboardProtocolHandshake(replyTimeout: configuration.terminalReplyTimeout)
  }

  // MARK: The prompt

  /// Runs entries until the prompt has its answer: one entry, or pairs under
  /// confirmation until they match or the attempts run out.
  mutating func run(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder,
    annotate: PromptAnnotation?
  ) throws(TerminalError) -> EntryOutcome<SecureBuffer> {
    var mismatches = 0
    var isSecondEntry = false
    while true {
      let end = try runEntry(
        terminal: &terminal, relay: relay, decoder: &decoder, annotate: annotate)
      if let ending = end.ending { return .ended(ending) }
      let entry = try copyOfField()
      guard let confirmation = configuration.confirmation else { return .submitted(entry) }
      if !isSecondEntry {
        firstEntry = consume entry
        isSecondEntry = true
        editor.startEntry(message: nil, judgesStrength: false)
        renderer.startEntry(prompt: confirmation.prompt)
        continue
      }
      isSecondEntry = false
      let first = firstEntry.take()!
      if first.constantTimeEquals(entry) { return .submitted(first) }
      mismatches += 1
      if mismatches >= confirmation.maximumAttempts {
        return .ended(.confirmationFailed(attempts: mismatches))
      }
      answers.giveBack(first)
      answers.giveBack(entry)
      editor.startEntry(message: configuration.texts.mismatch)
      renderer.startEntry(prompt: configuration.prompt)
      needsAnnotation = true
    }
  }

  /// Runs one entry to its end, which leaves the line masked and the cursor
  /// under it.
  mutating func runEntry(
    terminal: inout TerminalDevice, relay: borrowing SignalRelay, decoder: inout KeyDecoder,
    annotate: PromptAnnotation?
  ) throws(TerminalError) -> EntryOutcome<Void> {
    wakeDescriptors = [terminal.descriptor, relay.descriptor]
    try draw(annotate: annotate)
    if let afterFirstDraw {
      self.afterFirstDraw = nil
      afterFirstDraw()
    }
    if looksForRecorderAfterFirstDraw {
      looksForRecorderAfterFirstDraw = false
      let detection = terminal.detectRecording()
      if detection.isCaptured { editor.setCaptured(true, reason: detection.reason) }
    }
    self.annotate = annotate
    return try TerminalEventLoop.run(&self, terminal: &terminal, relay: relay, decoder: &decoder)
  }

  /// True when the caller took the question back: its deadline passed, or its
  /// descriptor woke the wait and its check says so.
  func isWithdrawn(_ withdrawal: PromptWithdrawal, readiness: Readiness) -> Bool {
    if let deadline = withdrawal.deadline, ContinuousClock.now >= deadline { return true }
    return readiness.contains(.watched) && withdrawal.isWithdrawn()
  }

  /// `EIO`: what `read(2)` reports once a terminal has hung up.
  static let inputOutputError: Int32 = TerminalEventLoop.inputOutputError

  /// Notes what a reaction asks for; returns how the entry ends, if it does.
  mutating func take(
    _ reaction: PromptField.Reaction, terminal: inout TerminalDevice
  ) throws(TerminalError) -> EntryOutcome<Void>? {
    if reaction.ringsBell { writer.append(ControlSequence.bell) }
    if let edited = reaction.editedFrom {
      editedFrom = min(editedFrom ?? edited, edited)
      needsAnnotation = true
    }
    if reaction.redrawsAll { redrawsAll = true }
    if let reply = reaction.terminalReply {
      try handleTerminalReply(reply, terminal: &terminal)
    }
    return try ending(of: reaction.outcome, submits: true)
  }

  // MARK: The kitty keyboard handshake

  /// Asks whether the terminal speaks the kitty keyboard protocol, when the
  /// configuration wants caps lock; does not wait for the answer.
  mutating func startHandshake(terminal: borrowing TerminalDevice) throws(TerminalError) {
    guard configuration.terminalFeatures.contains(.keyboardProtocol) else { return }
    try terminal.write(KeyboardProtocolHandshake.query)
    handshake.sent(at: .now)
  }

  /// After a stop: the input flushed on the way out may have held the
  /// replies, so a query not answered yet is sent again. (Flags already pushed
  /// are pushed again by ``TerminalDevice/resumeRawMode()``.)
  mutating func askAgainAfterStop(terminal: borrowing TerminalDevice) throws(TerminalError) {
    guard handshake.state != .notAsked, handshake.isUnanswered else { return }
    try startHandshake(terminal: terminal)
  }

  /// A terminal's answer to the handshake's query: a flags reply first means
  /// the kitty keyboard protocol, so the flags are pushed (and recorded in the
  /// device, so every way out pops them); the attributes reply first means a
  /// plain terminal.
  mutating func handleTerminalReply(
    _ reply: KeyEvent, terminal: inout TerminalDevice
  ) throws(TerminalError) {
    if handshake.receive(reply) {
      try terminal.pushKeyboardFlags(KeyboardProtocolHandshake.flags)
    }
  }

  // MARK: Signals

  mutating func respond(
    to signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder: inout KeyDecoder
  ) throws(TerminalError) {
    switch signal.response {
    case .die, .stop:
      // Leave no revealed text behind, and the cursor on a fresh line for the
      // shell. A terminal that fails here fails the restore too: go on.
      try? finish()
    case .resume, .resize:
      break
    }
    // The wipe reaches the field while the relay holds the terminal: the job
    // state is a copy meanwhile.
    var jobs = self.jobs
    defer { self.jobs = jobs }
    let resumption = try jobs.respond(
      to: signal, terminal: &terminal, relay: relay,
      wipingFirst: {
        self.wipe()
        decoder.reset()
      })
    columns = terminal.size?.columns ?? columns
    rows = terminal.size?.rows ?? rows
    switch resumption {
    case .resumedAfterOwnStop, .continued(afterOwnStop: false):
      try askAgainAfterStop(terminal: terminal)
      renderer.startOnFreshLine()
    case .continued(afterOwnStop: true), .relayout:
      renderer.invalidate()
    case .waitingForForeground:
      break
    }
  }

  // MARK: Drawing

  /// Draws the frame for now: the field, its status lines, the caret.
  mutating func draw(annotate: PromptAnnotation?) throws(TerminalError) {
    guard !jobs.isWaitingForForeground else { return }
    if needsAnnotation, let annotate {
      let wake = PromptWake(
        descriptors: wakeDescriptors,
        deadline: TerminalEventLoop.earliest(deadline, withdrawal?.deadline))
      annotation = annotate(editor.field, wake)
    }
    needsAnnotation = false
    editor.field.render(at: .now, into: &line)
    revealEndsAt = line.revealEndsAt
    renderer.cellColumns(of: line, in: editor.field, into: &cellColumns)
    editor.statusLines(for: line, annotation: annotation, into: &statusLines)
    renderer.draw(
      line, cellColumns: cellColumns, status: statusLines, columns: columns, rows: rows,
      editedFrom: editedFrom, redrawingAll: redrawsAll, into: &output)
    editedFrom = nil
    redrawsAll = false
    let reveals = !output.reveals.isEmpty || renderer.showsRevealed
    if reveals { prepareFaultMask() }
    try writer.write(output, revealingFrom: editor.field)
    if !reveals { FaultRestore.withdrawMask() }
  }

  /// Prepares, before a frame that shows revealed text is written, what a
  /// fault handler writes to mask it (the line as ``finish()`` would draw it,
  /// from a copy of the renderer, which it leaves as it is): a fault must not
  /// leave the password on the screen, and the handler can only `write(2)`.
  mutating func prepareFaultMask() {
    var ending = renderer
    ending.finish(line, columns: columns, into: &faultMask)
    faultMask.withUnsafeText { FaultRestore.publishMask($0) }
  }

  // MARK: The early echo

  /// Writes the glyph of a masked key at once when the renderer says the key
  /// is sure to show as one more glyph at the cursor
  /// (``PromptRenderer/earlyEcho(of:payload:before:)``), so the echo does not
  /// wait for the field's edit, the window's close and the frame.
  mutating func echoEarly(_ event: KeyEvent, payload: UnsafeRawBufferPointer) {
    guard !jobs.isWaitingForForeground,
      let glyph = renderer.earlyEcho(of: event, payload: payload, before: editor.field)
    else { return }
    // A failed write is left to the frame, which draws the line again and
    // reports the error.
    if glyph.withUnsafeBytes({ Platform.writeAll(writer.descriptor, $0) }) != nil {
      renderer.invalidate()
    }
    // The terminal that shows the echo runs before the field's edit and the
    // frame: where it shares a core with the prompt (two cores, a busy
    // machine), it would otherwise wait for them.
    Platform.yieldProcessor()
  }

  /// Ends the entry on the screen: masked, status lines erased, cursor below.
  mutating func finish() throws(TerminalError) {
    editor.field.render(at: .now, into: &line)
    renderer.finish(line, columns: columns, into: &output)
    try writer.write(output, revealingFrom: editor.field)
    FaultRestore.withdrawMask()
  }

  // MARK: Secrets

  /// The field's text, copied into an answer made before the first key
  /// (``PromptAnswers``: room for one more byte, such as a newline).
  mutating func copyOfField() throws(TerminalError) -> SecureBuffer {
    try answers.take(copying: editor.field, storage: configuration.storage)
  }

  /// Wipes every secret the loop holds: the field and a first entry.
  mutating func wipe() {
    editor.wipe()
    firstEntry = nil
  }

  /// Ends the loop, wiping every secret it holds, and hands the field back to
  /// be kept for the next prompt (``PromptResources``).
  consuming func takeField() -> SecretFieldState {
    firstEntry = nil
    return editor.takeField()
  }

  /// Leaves the screen masked after an error, as far as the terminal lets it,
  /// and wipes.
  mutating func abandon() {
    try? finish()
    wipe()
  }
}

/// An entry on the terminal event loop: timeouts and the return to the
/// foreground before each wait, keys into the editor, and a frame after every
/// turn (the renderer draws only what changed).
extension PromptLoop: EntryEventHandler {
  var wakeTime: ContinuousClock.Instant? {
    // In the background still (the stop was discarded, or `bg` again): look
    // for the terminal's return now and then.
    var wake = TerminalEventLoop.earliest(deadline, revealEndsAt)
    wake = TerminalEventLoop.earliest(wake, jobs.foregroundCheck)
    wake = TerminalEventLoop.earliest(wake, handshake.deadline)
    return TerminalEventLoop.earliest(wake, withdrawal?.deadline)
  }

  var watchedDescriptor: Int32? { withdrawal?.descriptor }

  mutating func drawAfterForeground(terminal: borrowing TerminalDevice) throws(TerminalError) {
    try askAgainAfterStop(terminal: terminal)
    renderer.startOnFreshLine()
    try draw(annotate: annotate)
  }

  /// Judges the field for the strength line when an edit left it stale:
  /// here, before the wait, the edit's frame is on the screen already, and
  /// only while no key or signal waits, so the next key's echo never waits
  /// for an estimate (the key's own turn comes back here). Cut off by
  /// `StrengthBudget.keystroke`; Enter judges in full.
  ///
  /// - Returns: true when the line changed and a frame should show it.
  mutating func judgeStrength(terminal _: borrowing TerminalDevice) -> Bool {
    guard editor.strengthLine.isStale, !jobs.isWaitingForForeground,
      wakeDescriptors.count == 2,
      case .success(let waiting) = Platform.poll(
        wakeDescriptors[0], wakeDescriptors[1], nil, timeoutMilliseconds: 0),
      waiting.readable == 0, !waiting.interrupted
    else { return false }
    return editor.judgeStrength(budget: .keystroke)
  }

  mutating func woke(
    at now: ContinuousClock.Instant, readiness: Readiness
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    handshake.expire(at: now)
    if let withdrawal, isWithdrawn(withdrawal, readiness: readiness) {
      try finish()
      return .end(.ended(.withdrawn))
    }
    return .redraw
  }

  mutating func handle(
    _ signal: TerminalSignal, terminal: inout TerminalDevice, relay: borrowing SignalRelay,
    decoder: inout KeyDecoder
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    try respond(to: signal, terminal: &terminal, relay: relay, decoder: &decoder)
    return .redraw
  }

  mutating func handle(
    _ event: KeyEvent, payload: UnsafeRawBufferPointer, at now: ContinuousClock.Instant,
    terminal: inout TerminalDevice
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    if let refusal = answerRoomRefusal(for: event, payload: payload) {
      return try take(refusal, terminal: &terminal).map { .end($0) } ?? .redraw
    }
    echoEarly(event, payload: payload)
    let reaction = editor.handle(event, payload: payload, at: now)
    if let end = try take(reaction, terminal: &terminal) { return .end(end) }
    return .redraw
  }

  mutating func redraw(terminal: inout TerminalDevice) throws(TerminalError) {
    try draw(annotate: annotate)
  }
}
