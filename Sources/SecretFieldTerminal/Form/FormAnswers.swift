public import SecureMemory

/// What a submitted ``TerminalForm`` holds: the text of each plain field, and
/// each secret field's text in secure memory, by field name.
public struct FormAnswers: Sendable {
  /// The plain fields' texts, by name (they are not secret).
  public let texts: [String: String]
  /// The secret fields' texts, by name, each in a slot of the table's arena:
  /// read them inside `withSecret(for:_:)`, compare them with
  /// `constantTimeEquals(_:for:)`, copy one out with `copySecret(for:storage:)`.
  /// Dropping the last reference wipes them.
  public let secrets: SecretTable<String>
}
