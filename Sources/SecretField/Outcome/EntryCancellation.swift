/// How the user cancelled an entry. A pinentry tells them apart: the
/// interrupt key (Ctrl-C) cancels the client's whole operation, the others
/// only this question.
public enum EntryCancellation: Sendable, Hashable {
  /// Esc.
  case escape
  /// The interrupt key, Ctrl-C in a terminal.
  case interrupt
  /// Ctrl-D on an empty field, or the end of the input before any byte.
  case endOfInput
  /// A Cancel (or No) button, or the window closed.
  case button
}
