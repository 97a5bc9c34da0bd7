import SecretField
import Testing

@Suite("FieldKeyBindings: one table of what a key does, for every front end")
struct FieldKeyBindingsTests {
  struct Binding: CustomTestStringConvertible, Sendable {
    let key: FieldKey
    let command: FieldCommand?
    var testDescription: String { "\(key) → \(command.map { "\($0)" } ?? "nothing")" }

    init(_ key: FieldKey, _ command: FieldCommand?) {
      self.key = key
      self.command = command
    }
  }

  static let bindings: [Binding] = [
    Binding(FieldKey(.backspace), .deleteBackward),
    Binding(FieldKey(.backspace, .control), .deleteWordBackward),
    Binding(FieldKey(.backspace, .alt), .deleteWordBackward),
    Binding(FieldKey(.delete), .deleteForward),
    Binding(FieldKey(.character("u"), .control), .deleteToStart),
    Binding(FieldKey(.character("k"), .control), .deleteToEnd),
    Binding(FieldKey(.character("w"), .control), .deleteWordBackward),
    Binding(FieldKey(.left), .move(.left)),
    Binding(FieldKey(.right, .control), .move(.wordRight)),
    Binding(FieldKey(.left, [.control, .shift]), .move(.wordLeft, extendingSelection: true)),
    Binding(FieldKey(.home, .shift), .move(.start, extendingSelection: true)),
    Binding(FieldKey(.end), .move(.end)),
    Binding(FieldKey(.character("a"), .control), .selectAll),
    Binding(FieldKey(.tab), .toggleReveal),
    Binding(FieldKey(.tab, .shift), nil),
    Binding(FieldKey(.enter), .submit),
    Binding(FieldKey(.escape), .cancel(.escape)),
    // Every cut key cuts, every copy key copies, every paste key pastes:
    // the editor refuses all three.
    Binding(FieldKey(.character("x"), .control), .cut),
    Binding(FieldKey(.delete, .shift), .cut),
    Binding(FieldKey(.character("c"), .control), .copy),
    Binding(FieldKey(.insert, .control), .copy),
    Binding(FieldKey(.character("v"), .control), .pasteFromClipboard),
    Binding(FieldKey(.insert, .shift), .pasteFromClipboard),
    Binding(FieldKey(.up), nil),
    Binding(FieldKey(.character("q"), .control), nil),
    Binding(FieldKey(.character("a"), .alt), nil),
  ]

  @Test("each key's command", arguments: bindings)
  func binding(_ binding: Binding) {
    #expect(FieldKeyBindings.command(for: binding.key) == binding.command)
  }

  @Test("select all, then any cut key: refused, and the text is kept")
  func cutKeysKeepTheText() throws {
    for cutKey in [FieldKey(.character("x"), .control), FieldKey(.delete, .shift)] {
      var field = try makeField("hunter2")
      perform(
        try #require(FieldKeyBindings.command(for: FieldKey(.character("a"), .control))), on: &field
      )
      let reaction = perform(try #require(FieldKeyBindings.command(for: cutKey)), on: &field)
      #expect(reaction.refusal == .copyOrCutRefused, "\(cutKey)")
      #expect(field.string == "hunter2", "\(cutKey) lost the text")
    }
  }
}
