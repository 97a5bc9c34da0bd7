/// Draws a passphrase quality estimate (-100 to 100, as gpg-agent answers
/// `INQUIRE QUALITY`) as one line of text: the label, a bar, the number.
///
/// `Quality: [██████░░░░░░░░░░░░░░]  30%` on a UTF-8 terminal,
/// `Quality: [######--------------]  30%` elsewhere. The bar's length is the
/// estimate's magnitude; a negative estimate (the agent's constraints are not
/// met) shows its minus sign: `-30%`. No estimate (the client gave none) draws
/// an empty bar and `?`.
package struct QualityMeter: Sendable, Hashable {
  /// The text before the bar (`SETQUALITYBAR`'s).
  package var label: String
  /// Draw with block characters rather than ASCII.
  package var isUTF8: Bool
  /// How many cells the bar has.
  package var cells: Int

  /// A meter labelled `label`, 20 cells wide.
  package init(label: String, isUTF8: Bool, cells: Int = 20) {
    precondition(cells > 0, "QualityMeter: the bar needs at least one cell")
    self.label = label
    self.isUTF8 = isUTF8
    self.cells = cells
  }

  /// The line for `score`, clamped to -100...100; nil for no estimate.
  ///
  /// - Complexity: O(``cells``).
  package func line(score: Int?) -> String {
    let filledGlyph = isUTF8 ? "\u{2588}" : "#"
    let emptyGlyph = isUTF8 ? "\u{2591}" : "-"
    guard let score else {
      return label + " [" + String(repeating: emptyGlyph, count: cells) + "]    ?"
    }
    let clamped = max(-100, min(100, score))
    let filled = (abs(clamped) * cells + 50) / 100
    let number = String(clamped) + "%"
    let padding = String(repeating: " ", count: max(1, 5 - number.count))
    return label + " ["
      + String(repeating: filledGlyph, count: filled)
      + String(repeating: emptyGlyph, count: cells - filled) + "]" + padding + number
  }
}
