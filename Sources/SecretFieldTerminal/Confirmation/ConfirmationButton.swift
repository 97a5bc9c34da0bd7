/// A button of a ``ConfirmationPrompt`` drawn as a row of buttons (a
/// pinentry's `CONFIRM` and `MESSAGE`): what pressing it answers, and its
/// label.
public struct ConfirmationButton: Sendable, Hashable {
  /// What pressing a button answers.
  public enum Role: Sendable, Hashable {
    /// `EntryOutcome.yes`.
    case yes
    /// `EntryOutcome.no`.
    case no
    /// `EntryOutcome.cancelled`, as Esc.
    case cancel
  }

  /// What pressing it answers.
  public var role: Role
  /// Its label; control characters show as `?`.
  public var label: String

  /// A button labelled `label` that answers as `role` says.
  public init(_ role: Role, label: String) {
    self.role = role
    self.label = label
  }
}
