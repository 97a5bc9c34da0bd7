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
      FieldKeyBindings.command(for: Self.fieldKey(key, modifiers))
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

  /// The key as the field's bindings name it.
  package static func fieldKey(_ key: Key, _ modifiers: Modifiers) -> FieldKey {
    FieldKey(key, modifiers)
  }

}
