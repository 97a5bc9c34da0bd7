/// How much work a strength estimate may do before it stops and gives what it
/// has: a count of steps, not a time.
///
/// A step is one character examined by one of the estimate's matchers (a
/// dictionary walk, a keyboard walk, a date format, a repeat). The rules that
/// need no estimate (length, the common-password list, context words) are
/// always checked in full. Past the budget the matchers stop, and the estimate
/// is made from the patterns found so far: it can only overstate the guesses,
/// and ``PasswordStrength/isComplete`` is false.
///
/// A budget, rather than a deadline, because the model reads no clock and so
/// that the same text under the same budget always gives the same answer,
/// which a test can check. A front end that judges after each keystroke
/// passes a budget sized to the time it can spare (``keystroke`` is about a
/// millisecond on a slow machine) and judges again with ``unlimited`` before
/// it accepts a password.
public struct StrengthBudget: Sendable, Hashable {
  /// The most steps the matchers take.
  public var steps: Int

  /// A budget of `steps` steps.
  ///
  /// - Precondition: `steps` is 0 or more.
  public init(steps: Int) {
    precondition(steps >= 0, "StrengthBudget: a budget cannot be negative")
    self.steps = steps
  }

  /// No limit. The estimate looks at the first 100 code points in detail (as
  /// zxcvbn-c does), so even this is bounded: the costliest input found, 100
  /// repeated `1`s, takes 348,000 steps, about 1.7 ms on the project's 2-core
  /// build machine (a step costs about 5 ns there).
  public static let unlimited = StrengthBudget(steps: .max)

  /// 200,000 steps, about 1 ms on the project's build machine: enough for
  /// every password of 64 characters or fewer the tests try (the costliest,
  /// 64 repeated `1`s, takes 120,000), so a cut-off estimate is a long and
  /// repetitive password's.
  public static let keystroke = StrengthBudget(steps: 200_000)
}
