/// One measured protection of this machine and process, as
/// ``SecureMemoryDiagnostics/survey(secretsNeeded:)`` reports it (and
/// `secretfield doctor` prints it).
public struct ProtectionFinding: Sendable, Hashable, CustomStringConvertible {
  /// How the measurement compares with the strongest protection.
  public enum Verdict: Sendable, Hashable {
    /// The strongest protection holds here.
    case holds
    /// Something weaker than the strongest protection; the detail says what to do.
    case fallsShort
    /// Not on this kernel or for this process (no Yama module, a capability
    /// that lifts a limit); never a shortfall.
    case doesNotApply
  }

  /// What was measured, as in `secret memory`.
  public let subject: String
  /// How it compares.
  public let verdict: Verdict
  /// The measured values, and for a shortfall the remedy.
  public let detail: String

  /// A finding.
  public init(_ subject: String, _ verdict: Verdict, _ detail: String) {
    self.subject = subject
    self.verdict = verdict
    self.detail = detail
  }

  /// The line as printed: a mark (`ok`, `SHORT`, `n/a`), the subject, the detail.
  public var description: String {
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
