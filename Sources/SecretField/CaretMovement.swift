/// Where a caret move goes, for ``SecretFieldState/moveCaret(_:extendingSelection:)``.
public enum CaretMovement: Sendable, Hashable, CaseIterable {
  /// One character back.
  case left
  /// One character forward.
  case right
  /// Before the first character.
  case start
  /// After the last character.
  case end
  /// To the start of the word before the caret; to the start while masked.
  case wordLeft
  /// To the end of the word after the caret; to the end while masked.
  case wordRight
}
