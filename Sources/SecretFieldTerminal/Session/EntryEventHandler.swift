import SecretField

/// A ``TerminalEventHandler`` that asks for an entry: the prompt and the form.
///
/// Before each wait both do the same three things in the same order: end at
/// their deadline, show themselves again once the job is back in the
/// foreground after a stop, and judge the strength line while no key waits.
/// That order is kept here, once; each says only how it draws and judges.
protocol EntryEventHandler: TerminalEventHandler, ~Copyable
where Ending == EntryOutcome<Void> {
  /// When the entry gives up, or nil for never.
  var deadline: ContinuousClock.Instant? { get }
  /// The job's stops and returns to the foreground.
  var jobs: JobControl { get set }

  /// Writes the last frame and leaves the terminal as it was found.
  mutating func finish() throws(TerminalError)

  /// Shows the entry again after the job came back to the foreground.
  mutating func drawAfterForeground(terminal: borrowing TerminalDevice) throws(TerminalError)

  /// Judges the field in focus for its strength line when an edit left it
  /// stale, only while no key waits.
  ///
  /// - Returns: true when the line changed and a frame should show it.
  mutating func judgeStrength(terminal: borrowing TerminalDevice) -> Bool
}

extension EntryEventHandler where Self: ~Copyable {
  var hangUpEnding: EntryOutcome<Void> { .ended(.hungUp) }

  mutating func prepare(
    at now: ContinuousClock.Instant, terminal: inout TerminalDevice
  ) throws(TerminalError) -> TerminalEventResponse<EntryOutcome<Void>> {
    if let deadline, now >= deadline {
      try finish()
      return .end(.ended(.timedOut))
    }
    if try jobs.returnToForeground(terminal: &terminal) {
      try drawAfterForeground(terminal: terminal)
    }
    return judgeStrength(terminal: terminal) ? .redraw : .proceed
  }

  /// How a field's `outcome` ends the entry, if it does: a cancel key writes
  /// the last frame and ends it; ^Z stops the job, which goes on when it is
  /// resumed. Enter ends it only where `submits`: the form reads Enter
  /// itself, before its fields, to check them all first.
  mutating func ending(
    of outcome: PromptField.Reaction.Outcome?, submits: Bool
  ) throws(TerminalError) -> EntryOutcome<Void>? {
    switch outcome {
    case nil:
      return nil
    case .submit:
      guard submits else { return nil }
      try finish()
      return .yes
    case .cancel(let cancellation):
      try finish()
      return .ended(.cancelled(cancellation))
    case .suspend:
      JobControl.suspend()
      return nil
    }
  }
}
