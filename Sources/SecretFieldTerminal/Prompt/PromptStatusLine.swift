/// One line the prompt shows under the field: a message, a warning, or the
/// hint. Never a secret.
package struct PromptStatusLine: Sendable, Hashable {
  /// How the line is drawn.
  package enum Style: Sendable, Hashable {
    /// Plain: a message about the last key.
    case message
    /// Plain: a lasting condition (caps lock, a quality estimate).
    case warning
    /// Dim: the keys the prompt takes.
    case hint
  }

  /// The text, one line.
  package var text: String
  /// How it is drawn.
  package var style: Style

  /// A line of `text` in `style`.
  package init(_ text: String, style: Style) {
    self.text = text
    self.style = style
  }
}
