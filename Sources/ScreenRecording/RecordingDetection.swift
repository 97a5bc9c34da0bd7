/// The answer to "is this terminal session being recorded, and by what", as
/// far as Linux lets a program see it.
///
/// Captured means at least one piece of ``evidence`` was found. Not captured
/// means none was: it does not mean the session is not recorded (a screen
/// recorder outside the terminal cannot be seen at all), and
/// ``uncheckedSources`` lists where the detector could not look.
public struct RecordingDetection: Sendable, Hashable, CustomStringConvertible {
  /// Every sign of recording found, in the order checked: environments
  /// first, then ancestries, then tmux.
  public let evidence: [RecordingEvidence]
  /// Where the detector could not look, and why.
  public let uncheckedSources: [UncheckedRecordingSource]
  /// The session leader of the terminal, when it was found.
  public let sessionLeaderID: Int32?

  /// A detection from its parts.
  public init(
    evidence: [RecordingEvidence], uncheckedSources: [UncheckedRecordingSource] = [],
    sessionLeaderID: Int32? = nil
  ) {
    self.evidence = evidence
    self.uncheckedSources = uncheckedSources
    self.sessionLeaderID = sessionLeaderID
  }

  /// True when any evidence was found: set the field's `isCaptured` from it.
  public var isCaptured: Bool { !evidence.isEmpty }

  /// The sentence for the prompt to show while captured, from the first
  /// evidence ("asciinema is recording this terminal"); nil when not captured.
  public var reason: String? { evidence.first?.reason }

  /// "captured: " and every piece of evidence, or "not detected", then what
  /// could not be checked.
  public var description: String {
    var text =
      isCaptured
      ? "captured: " + evidence.map(\.description).joined(separator: "; ") : "not detected"
    if !uncheckedSources.isEmpty {
      text += " (not checked: " + uncheckedSources.map(\.description).joined(separator: "; ") + ")"
    }
    return text
  }
}
