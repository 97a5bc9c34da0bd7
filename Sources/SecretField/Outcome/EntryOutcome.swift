/// How an entry ended: its answer, or why there is none.
///
/// The answer of a password entry is a `SecureBuffer`, so the outcome is
/// `~Copyable` and the secret has one owner: take it with ``answer()``
/// (which throws the ``EntryEnding`` for the other case), or with
/// `switch consume outcome`. Dropping the outcome drops the answer, which
/// wipes a secure buffer. A yes-or-no question's outcome is
/// `EntryOutcome<Void>`: ``submitted(_:)`` is yes.
public enum EntryOutcome<Answer: ~Copyable>: ~Copyable {
  /// The user gave this answer: Enter on the field (under confirmation, both
  /// entries matched), a form's fields, or yes.
  case submitted(Answer)
  /// No answer, and why.
  case ended(EntryEnding)

  /// Why there is no answer; nil for ``submitted(_:)``.
  public var ending: EntryEnding? {
    switch self {
    case .submitted: nil
    case .ended(let ending): ending
    }
  }

  /// True for ``submitted(_:)``.
  public var isSubmitted: Bool { ending == nil }

  /// The answer, or why there is none as an error: consumes the outcome.
  ///
  /// Makes an entry one line, in a function or at the top level of
  /// `main.swift` alike: `let password = try PasswordPrompt(c).run().answer()`.
  ///
  /// - Throws: the ``EntryEnding`` of ``ended(_:)``.
  public consuming func answer() throws(EntryEnding) -> Answer {
    switch consume self {
    case .submitted(let answer): return answer
    case .ended(let ending): throw ending
    }
  }
}

extension EntryOutcome: Copyable where Answer: Copyable {}
extension EntryOutcome: Sendable where Answer: Sendable & ~Copyable {}
extension EntryOutcome: Equatable, Hashable where Answer == Void {
  /// Yes, to a yes-or-no question.
  public static var yes: Self { .submitted(()) }

  /// Two yes-or-no outcomes are equal when both are yes or both ended alike.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.ending == rhs.ending }

  /// Hashes the ending (nil for yes).
  public func hash(into hasher: inout Hasher) { hasher.combine(ending) }
}
