import SecretField
import SecretFieldTerminal

/// A prompt without a terminal: events into a ``PromptField``, frames from a
/// ``PromptRenderer`` onto a ``MiniTerminal``, the way ``PasswordPrompt``'s loop
/// connects them. The field's text is read back as a `String`: a test oracle.
struct PromptDriver: ~Copyable {
  var editor: PromptField
  var renderer: PromptRenderer
  var screen: MiniTerminal
  var now = ContinuousClock.now
  var columns: Int
  var rows: Int?
  var editedFrom: Int?
  var redrawsAll = false
  /// Every operation drawn, in order.
  var operations: [ScreenOperation] = []
  var reactions: [PromptField.Reaction] = []

  static let utf8 = TerminalLocale(environment: ["LANG": "C.UTF-8"])

  init(
    _ configuration: PromptConfiguration = PromptConfiguration(), columns: Int = 80,
    rows: Int? = nil, locale: TerminalLocale = PromptDriver.utf8
  ) throws {
    editor = try PromptField(configuration: configuration, locale: locale)
    renderer = PromptRenderer(
      configuration: configuration, locale: locale,
      statusLineCapacity: editor.maximumStatusLineCount(annotating: false))
    screen = MiniTerminal(columns: columns, rows: rows ?? 10)
    self.columns = columns
    self.rows = rows
  }

  /// The field's text, copied out: an oracle.
  var text: String { editor.field.withSecret { String(decoding: $0, as: UTF8.self) } }
  var caret: Int { editor.field.caret }

  /// Handles `event` with `payload` (for text and pastes), without drawing.
  @discardableResult
  mutating func handle(_ event: KeyEvent, payload: [UInt8] = []) -> PromptField.Reaction {
    let now = self.now
    let reaction = payload.withUnsafeBytes { editor.handle(event, payload: $0, at: now) }
    if let edited = reaction.editedFrom { editedFrom = min(editedFrom ?? edited, edited) }
    if reaction.redrawsAll { redrawsAll = true }
    reactions.append(reaction)
    return reaction
  }

  @discardableResult
  mutating func type(_ text: String) -> PromptField.Reaction {
    handle(.text, payload: Array(text.utf8))
  }

  /// Types `text` one character a key and draws a frame after each, as a
  /// user types at the prompt.
  mutating func typeDrawingEach(_ text: String) {
    for character in text {
      type(String(character))
      draw()
    }
  }

  /// The glyph the renderer would echo at once for `key` typed as text now,
  /// or nil where it must wait for the frame.
  mutating func earlyEcho(of key: [UInt8]) -> [UInt8]? {
    key.withUnsafeBytes { renderer.earlyEcho(of: .text, payload: $0, before: editor.field) }
  }

  @discardableResult
  mutating func paste(_ text: String) -> PromptField.Reaction {
    handle(.paste, payload: Array(text.utf8))
  }

  @discardableResult
  mutating func keys(_ events: KeyEvent...) -> PromptField.Reaction {
    var last = PromptField.Reaction()
    for event in events { last = handle(event) }
    return last
  }

  /// Draws a frame onto the screen; returns its operations.
  @discardableResult
  mutating func draw() -> [ScreenOperation] {
    let line = editor.field.render(at: now)
    let widths = renderer.cellColumns(of: line, in: editor.field)
    let status = editor.statusLines(for: line)
    let frame = renderer.draw(
      line, cellColumns: widths, status: status, columns: columns, rows: rows,
      editedFrom: editedFrom, redrawingAll: redrawsAll)
    editedFrom = nil
    redrawsAll = false
    apply(frame)
    return frame
  }

  /// Ends the entry on the screen; returns the operations.
  @discardableResult
  mutating func finish() -> [ScreenOperation] {
    let frame = renderer.finish(editor.field.render(at: now), columns: columns)
    apply(frame)
    return frame
  }

  mutating func apply(_ frame: [ScreenOperation]) {
    operations += frame
    for operation in frame {
      switch operation {
      case .text(let text): screen.write(text)
      case .revealed(let range):
        let revealed = editor.field.withSecret {
          String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self)
        }
        screen.write(revealed)
      }
    }
  }
}

extension [ScreenOperation] {
  /// The text operations joined, revealed ranges left out.
  var writtenText: String {
    compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
  }

  /// How many operations write revealed bytes.
  var revealedCount: Int {
    count { if case .revealed = $0 { true } else { false } }
  }
}
