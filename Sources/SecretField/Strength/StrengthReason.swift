/// Why a password was refused, in plain words that name the rule.
///
/// The words describe the rule and what of the password broke it ("a sequence
/// such as abcd or 2468"), never the password's characters; a context word is
/// quoted, since the caller gave it.
public struct StrengthReason: Sendable, Hashable, CustomStringConvertible {
  /// The rule a reason is about.
  public enum Rule: Sendable, Hashable, CaseIterable {
    /// Fewer code points than ``StrengthRules/minimumLength``.
    case minimumLength
    /// The whole password is on the bundled list of common passwords.
    case commonPassword
    /// The password holds the user's name or another context word.
    case contextWord
    /// The estimate found the password made of expected patterns, and puts it
    /// below ``StrengthRules/minimumScore``.
    case expectedValue
  }

  /// The rule broken.
  public let rule: Rule
  /// The reason in words, as in `9 characters; at least 15`.
  public let description: String

  init(_ rule: Rule, _ description: String) {
    self.rule = rule
    self.description = description
  }
}
