/// A way for whoever asked to take the question back while the prompt is on
/// the screen: a systemd password request whose file was removed or whose
/// deadline passed.
///
/// The prompt's one `poll` also waits on ``descriptor`` and wakes at
/// ``deadline``; when the descriptor is readable it calls ``isWithdrawn``,
/// which must read what woke it (an inotify descriptor's events), or the poll
/// wakes again at once. A withdrawn prompt ends as every prompt ends (the line
/// masked, the field wiped, the terminal restored) with
/// `EntryOutcome.withdrawn`.
public struct PromptWithdrawal {
  /// A descriptor whose readiness may mean the question was taken back, or nil.
  public var descriptor: Int32?
  /// When the question is taken back at the latest, or nil.
  public var deadline: ContinuousClock.Instant?
  /// Called when ``descriptor`` is readable: true when the question is taken back.
  public var isWithdrawn: () -> Bool

  /// A withdrawal woken by `descriptor`, decided by `isWithdrawn`, or at
  /// `deadline`.
  public init(
    descriptor: Int32? = nil, deadline: ContinuousClock.Instant? = nil,
    isWithdrawn: @escaping () -> Bool = { false }
  ) {
    self.descriptor = descriptor
    self.deadline = deadline
    self.isWithdrawn = isWithdrawn
  }
}
