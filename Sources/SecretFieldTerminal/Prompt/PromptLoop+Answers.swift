import SecretField
import SecureMemory

extension PromptLoop {
  /// Makes room in the answers for what `event` may add to the field, before
  /// the editor takes it; a refusal when the room cannot be had (the lock
  /// limit), which costs that key only, never the password typed so far.
  ///
  /// - Complexity: O(1) unless the field grows past what the answers hold
  ///   (a password over 4 KiB); then one allocation per answer, geometric.
  mutating func answerRoomRefusal(
    for event: KeyEvent, payload: UnsafeRawBufferPointer
  ) -> PromptField.Reaction? {
    guard event == .text || event == .paste else { return nil }
    let limit = editor.field.limits.maxBytes + 1
    let needed = min(limit, editor.field.utf8Count + payload.count + 1)
    guard needed > answers.capacity else { return nil }
    do {
      try answers.ensureRoom(for: min(limit, max(needed, 2 * answers.capacity)))
    } catch {
      return editor.refuse(error.description)
    }
    return nil
  }
}
