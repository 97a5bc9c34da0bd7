/// What a front end asks the field's editor to do: a key, a click or an
/// input method's text, already translated from the front end's own input.
///
/// A front end never decides what a command does to the field; ``FieldEditor``
/// does. Which key sends which command is the front end's table from its
/// input (terminal key events, GDK key values) to these commands, with
/// ``FieldKeyBindings`` for the keys every front end shares.
public enum FieldCommand: Sendable, Hashable {
  /// Type the text lent with the command (one key's UTF-8, or what an input
  /// method committed), replacing the selection.
  case insert
  /// Paste the text lent with the command (a terminal's bracketed paste): one
  /// trailing line break is dropped, and text with a line break inside it or
  /// longer than the field takes is refused whole.
  case paste

  /// Delete the selection, or the character before the caret.
  case deleteBackward
  /// Delete the selection, or the character after the caret.
  case deleteForward
  /// Delete the selection, or back to the start of the word before the caret
  /// (to the start while masked: word boundaries would show where the spaces
  /// are).
  case deleteWordBackward
  /// Delete the selection, or everything before the caret.
  case deleteToStart
  /// Delete the selection, or everything after the caret.
  case deleteToEnd

  /// Move the caret, or extend the selection with it.
  case move(CaretMovement, extendingSelection: Bool = false)
  /// Select the whole text.
  case selectAll

  /// Copy the selection: refused, since no front end hands a password to a
  /// clipboard.
  case copy
  /// Cut the selection: refused with the text kept, for the same reason.
  case cut
  /// Paste from the clipboard: refused, since reading the clipboard would put
  /// the text in the toolkit's own memory first.
  case pasteFromClipboard

  /// Show or mask the text, keeping the caret (refused while recorded).
  case toggleReveal
  /// End the entry with the text (refused below ``FieldEditor/minimumLength``).
  case submit
  /// End the entry without the text.
  case cancel(EntryCancellation)
  /// The end-of-input key (Ctrl-D): cancels on an empty field, and deletes
  /// the character after the caret otherwise, as readline does.
  case endOfInput
}
