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

/// How a ``TerminalForm`` ended.
public enum FormResult: Sendable {
  /// Submitted, every field long enough.
  case submitted(FormAnswers)
  /// The user cancelled, by the key named.
  case cancelled(PromptCancellation)
  /// The form's timeout ran out.
  case timedOut
  /// The terminal went away.
  case hungUp

  /// The answers, or why there are none as an error.
  ///
  /// - Throws: ``PromptEnding`` for every case but ``submitted(_:)``.
  public func answers() throws(PromptEnding) -> FormAnswers {
    switch self {
    case .submitted(let answers): return answers
    case .cancelled(let key): throw .cancelled(key)
    case .timedOut: throw .timedOut
    case .hungUp: throw .hungUp
    }
  }
}
