public import SecretField

/// One line of a ``TerminalForm``: a label and a field, plain (a user name)
/// or secret (a password).
public struct FormField: Sendable, Hashable {
  /// How the field shows and keeps its text.
  public enum Kind: Sendable, Hashable {
    /// Shown as typed, handed back as a `String`: for what is not secret.
    case plain(initialText: String = "")
    /// Masked, revealed only with the form's reveal key, handed back in
    /// secure memory and never as a `String`.
    case secret
  }

  /// What the answer is looked up by.
  public var name: String
  /// The text before the field, such as `User:`; control characters show
  /// as `?`.
  public var label: String
  /// Plain or secret.
  public var kind: Kind
  /// The fewest characters the field takes before the form is submitted.
  public var minimumLength: Int
  /// For a new password: the rules a secret field's text is judged by, with
  /// a strength line under the form while the field has the focus, and the
  /// submit refused, with the reasons, while they refuse it (see
  /// `PromptConfiguration.strength`). Nil, the default, judges nothing; a
  /// plain field is never judged.
  public var strength: StrengthRules?

  /// A field called `name`, labelled `label`.
  public init(
    name: String, label: String, kind: Kind, minimumLength: Int = 0,
    strength: StrengthRules? = nil
  ) {
    self.name = name
    self.label = label
    self.kind = kind
    self.minimumLength = minimumLength
    self.strength = strength
  }

  /// True for a secret field.
  public var isSecret: Bool { kind == .secret }
}
