package import SecretField

extension KeyEvent {
  /// The terminal's table from its key events to the field editor's commands:
  /// the decoder has already read the readline keys (^A, ^E, ^U, ^K, ^W, ^C,
  /// ^D) as the edits they are; every other key goes through the bindings all
  /// front ends share (``FieldKeyBindings``), so Shift+Delete is a cut here as
  /// it is in the window. Nil for what is not the field's: the terminal's own
  /// keys (^Z, ^L), focus, caps lock and the terminal's replies.
  package var fieldCommand: FieldCommand? {
    switch self {
    case .text: .insert
    case .paste: .paste
    case .submit: .submit
    case .cancel: .cancel(.interrupt)
    case .escape: .cancel(.escape)
    case .endOfInput: .endOfInput
    case .tab: .toggleReveal
    case .deleteBackward: .deleteBackward
    case .deleteForward: .deleteForward
    case .deleteToStart: .deleteToStart
    case .deleteToEnd: .deleteToEnd
    case .deleteWordBackward: .deleteWordBackward
    case .moveLeft: .move(.left)
    case .moveRight: .move(.right)
    case .moveWordLeft: .move(.wordLeft)
    case .moveWordRight: .move(.wordRight)
    case .moveToStart: .move(.start)
    case .moveToEnd: .move(.end)
    case .key(let key, let modifiers):
      fieldKey(key, modifiers).flatMap(FieldKeyBindings.command(for:))
    case .pasteTooLong, .invalidText, .suspend, .redraw, .focusIn, .focusOut, .capsLock,
      .keyboardFlags, .deviceAttributes, .unknownSequence:
      nil
    }
  }

  /// What the decoder refused before the editor could see it: a paste longer
  /// than it keeps, bytes that are not UTF-8.
  package var fieldRefusal: FieldRefusal? {
    switch self {
    case .pasteTooLong: .pasteTooLong
    case .invalidText: .invalidText
    default: nil
    }
  }

  private func fieldKey(_ key: Key, _ modifiers: Modifiers) -> FieldKey? {
    var held: FieldKey.Modifiers = []
    if modifiers.contains(.shift) { held.insert(.shift) }
    if modifiers.contains(.alt) { held.insert(.alt) }
    if modifiers.contains(.control) { held.insert(.control) }
    let name: FieldKey.Name
    switch key {
    case .tab: name = .tab
    case .enter: name = .enter
    case .escape: name = .escape
    case .backspace: name = .backspace
    case .delete: name = .delete
    case .insert: name = .insert
    case .up: name = .up
    case .down: name = .down
    case .left: name = .left
    case .right: name = .right
    case .home: name = .home
    case .end: name = .end
    case .character(let scalar): name = .character(scalar)
    case .pageUp, .pageDown, .function: return nil
    }
    return FieldKey(name, held)
  }
}
