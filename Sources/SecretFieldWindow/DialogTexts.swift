/// The texts a dialog shows; none of them secret.
package struct DialogTexts: Sendable {
  /// The window's title.
  package var title: String
  /// Lines above the prompt, if any.
  package var description: String?
  /// The line before the field, or the question.
  package var prompt: String
  /// An error to show at first (a wrong passphrase before), if any.
  package var error: String?
  /// The accepting button's label.
  package var okLabel = "_OK"
  /// The cancelling button's label.
  package var cancelLabel = "_Cancel"
  /// The label before the quality bar under the field (the pinentry's
  /// `SETQUALITYBAR`); nil shows no bar.
  package var qualityBarLabel: String?
  /// The label of a confirmation's third button, which declines without
  /// cancelling (the pinentry's `SETNOTOK`); nil shows none.
  package var notOkLabel: String?
  /// The label of a plain user-name field above the password (a git
  /// credential's); nil shows none.
  package var usernameLabel: String?
  /// What the user-name field holds at first (the user name git sent).
  package var username: String?

  /// Texts with `title` and `prompt`.
  package init(title: String, prompt: String) {
    self.title = title
    self.prompt = prompt
  }
}
