package import SecureMemory

/// The strength of a new password as a front end shows it under the field:
/// a label, a bar of the estimate's score and a few words (the verdict and
/// its first reason), as in `Strength [██░░░░░░] refused: on a list of common
/// passwords`. The terminal's prompt and form and the window show the same
/// line.
///
/// It judges the field in place (`StrengthJudge` copies nothing out of
/// secure memory) when it is asked to, which a front end does after an
/// edit's frame is shown and only while no key waits: the echo never waits
/// for the estimate, and a long estimate is cut off by
/// `StrengthBudget.keystroke`. Enter judges again without a budget
/// (``verdict(of:)``). Without rules it judges nothing and shows nothing.
package struct StrengthLine: ~Copyable {
  /// The judge, nil when the front end judges nothing.
  var judge: StrengthJudge?
  /// Judge this entry: off for a confirmation's second entry.
  package var isActive: Bool
  /// The field changed since the last judgement.
  package private(set) var isStale = false
  /// The last judgement's line; nil while the field is empty, and while
  /// the entry is not judged.
  package private(set) var text: String?
  /// The last judgement's verdict; nil when ``text`` is.
  package private(set) var verdict: PasswordStrength.Verdict?
  /// The label before the bar.
  let label: String
  /// Block characters for the bar, or ASCII.
  let isUTF8: Bool

  /// The bar's cells: two a point of the score.
  static let cells = 8

  /// A line that judges by `rules` (nil: never), its scratch in the memory
  /// ``scratchStorage(for:)`` picks for a field of `storage`.
  ///
  /// - Throws: `SecureMemoryError` when the judge's scratch cannot be had.
  package init(
    rules: StrengthRules?, storage: SecureStorage, label: String, isUTF8: Bool
  ) throws(SecureMemoryError) {
    var judge: StrengthJudge? = nil
    if let rules {
      judge = try StrengthJudge(rules: rules, storage: Self.scratchStorage(for: storage))
    }
    self.init(judge: judge, label: label, isUTF8: isUTF8)
  }

  /// A line that judges with `judge` (nil: never).
  package init(judge: consuming StrengthJudge?, label: String, isUTF8: Bool) {
    isActive = judge != nil
    self.judge = judge
    self.label = label
    self.isUTF8 = isUTF8
  }

  /// Where a judge's scratch lives for secrets kept in `storage`: sodium
  /// memory for sealed secrets, else `storage`.
  ///
  /// The scratch holds the decoded password only during a judgement, and is
  /// wiped before the judgement returns: between keys it holds zeros, so
  /// sealing it at rest protects nothing. Sealed, each judgement would
  /// decrypt and seal again its 27 KB and need a thread scratch that size
  /// in locked secret memory (`secretfield strength` needed 160 KiB of
  /// `RLIMIT_MEMLOCK`; with sodium scratch, see `PromptLockLimitTests`).
  package static func scratchStorage(for storage: SecureStorage) -> SecureStorage {
    storage == .sealed ? .sodium : storage
  }

  /// True when there is a judge and this entry is judged.
  package var judges: Bool { isActive && judge != nil }

  /// Leaves the judge's scratch as the estimate left it: for a residue
  /// test's control, which must find the decoded password there.
  package mutating func skipScratchWipeForTesting() {
    judge?.skipsScratchWipeForTesting = true
  }

  /// Notes an edit: the line is judged again when the front end has time.
  package mutating func fieldChanged() {
    if judges { isStale = true }
  }

  /// Forgets the last judgement, for a new entry.
  package mutating func reset(isActive: Bool) {
    self.isActive = isActive && judge != nil
    isStale = false
    text = nil
    verdict = nil
  }

  /// Judges `field` within `budget` and draws the line again.
  ///
  /// - Returns: true when the line's text changed.
  package mutating func judge(
    _ field: borrowing SecretFieldState, budget: StrengthBudget
  ) -> Bool {
    isStale = false
    guard judges else { return false }
    let old = text
    if field.isEmpty {
      text = nil
      verdict = nil
    } else if let strength = field.withSecret({ judge?.judge(utf8: $0, budget: budget) }) {
      text = line(for: strength)
      verdict = strength.verdict
    }
    return text != old
  }

  /// The complete verdict on `field` (no budget), for Enter; the line shows
  /// it after. Nil when the entry is not judged.
  package mutating func verdict(of field: borrowing SecretFieldState) -> PasswordStrength? {
    guard judges else { return nil }
    let strength = field.withSecret { judge?.judge(utf8: $0, budget: .unlimited) }
    isStale = false
    if let strength {
      text = line(for: strength)
      verdict = strength.verdict
    }
    return strength
  }

  /// The line for `strength`: the label, the bar, the summary; `…` after an
  /// estimate the budget cut short.
  package func line(for strength: PasswordStrength) -> String {
    let filled = min(Self.cells, strength.score * Self.cells / 4)
    let bar =
      String(repeating: isUTF8 ? "\u{2588}" : "#", count: filled)
      + String(repeating: isUTF8 ? "\u{2591}" : "-", count: Self.cells - filled)
    let cut = strength.isComplete ? "" : (isUTF8 ? " \u{2026}" : " ...")
    return label + " [" + bar + "] " + strength.summary + cut
  }
}
