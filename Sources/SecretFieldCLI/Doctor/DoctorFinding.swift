/// One measured line of `secretfield doctor`.
package struct DoctorFinding: Sendable, Hashable, CustomStringConvertible {
  /// How the measurement compares with the strongest protection.
  package enum Verdict: Sendable, Hashable {
    /// The strongest protection holds here.
    case holds
    /// Something weaker than the strongest protection; the detail says what to do.
    case fallsShort
    /// Not on this kernel or for this process (no Yama module, a capability
    /// that lifts a limit); never a shortfall.
    case doesNotApply
  }

  /// What was measured, as in `secret memory`.
  package let subject: String
  /// How it compares.
  package let verdict: Verdict
  /// The measured values, and for a shortfall the remedy.
  package let detail: String

  /// A finding.
  package init(_ subject: String, _ verdict: Verdict, _ detail: String) {
    self.subject = subject
    self.verdict = verdict
    self.detail = detail
  }

  /// The line as printed: a mark (`ok`, `SHORT`, `n/a`), the subject, the detail.
  package var description: String {
    let mark =
      switch verdict {
      case .holds: "ok   "
      case .fallsShort: "SHORT"
      case .doesNotApply: "n/a  "
      }
    let padded = subject + String(repeating: " ", count: max(1, 18 - subject.count))
    return "\(mark) \(padded)\(detail)"
  }
}
