/// What a ``StrengthJudge`` concluded about a password: accepted or refused,
/// why, and the estimate.
///
/// The estimate follows zxcvbn-c (the C port of Dropbox's zxcvbn that
/// KeePassXC uses): the password is split into the parts an attacker would
/// guess in fewest tries (list words, with case changes, look-alike
/// characters and reversal; keys next to each other on a keyboard; sequences;
/// repeats; dates; the context words), and the parts' guesses are multiplied.
/// ``guessesLog10`` is that count's logarithm, and ``score`` zxcvbn's 0 to 4.
///
/// Holds no character of the password. The figures do say something about
/// it (a password on the list has about as many guesses as its rank), so
/// treat them as you would its length.
public struct PasswordStrength: Sendable, Hashable {
  /// Accepted or refused.
  public enum Verdict: String, Sendable, Hashable {
    /// Every rule holds.
    case accepted
    /// At least one rule does not; ``PasswordStrength/reasons`` says which.
    case refused
  }

  /// Accepted when every rule of the judge's ``StrengthRules`` holds.
  public var verdict: Verdict { broken.isEmpty ? .accepted : .refused }

  /// True when the verdict is ``Verdict/accepted``.
  public var isAccepted: Bool { broken.isEmpty }

  /// zxcvbn's score: 0 below a thousand guesses, 1 below a million, 2 below a
  /// hundred million, 3 below ten billion, 4 from there.
  public let score: Int

  /// log10 of the estimated guesses (0 for an empty password).
  public let guessesLog10: Double

  /// The password's length in Unicode code points.
  public let length: Int

  /// False when the ``StrengthBudget`` ran out before the matchers were done:
  /// the estimate then counts only the patterns found so far, so it can
  /// overstate the guesses. Judge again with ``StrengthBudget/unlimited``
  /// before accepting a password on it.
  public let isComplete: Bool

  /// The steps the estimate's matchers took (see ``StrengthBudget``): for
  /// tests and benchmarks that size a budget.
  package let stepsTaken: Int

  /// The rules that do not hold.
  let broken: BrokenRules
  /// The patterns the estimate's cheapest split is made of.
  let patterns: StrengthPatterns
  /// The rules it was judged by (for the reasons' words).
  let rules: StrengthRules
  /// Which of the context words (user name first) were found, one bit each.
  let contextWordsFound: UInt64

  init(
    score: Int, guessesLog10: Double, length: Int, isComplete: Bool, stepsTaken: Int,
    broken: BrokenRules, patterns: StrengthPatterns, rules: StrengthRules,
    contextWordsFound: UInt64
  ) {
    self.stepsTaken = stepsTaken
    self.score = score
    self.guessesLog10 = guessesLog10
    self.length = length
    self.isComplete = isComplete
    self.broken = broken
    self.patterns = patterns
    self.rules = rules
    self.contextWordsFound = contextWordsFound
  }
}

/// The rules a password breaks, one bit each.
struct BrokenRules: OptionSet, Sendable, Hashable {
  let rawValue: UInt8
  static let minimumLength = BrokenRules(rawValue: 1 << 0)
  static let commonPassword = BrokenRules(rawValue: 1 << 1)
  static let contextWord = BrokenRules(rawValue: 1 << 2)
  static let expectedValue = BrokenRules(rawValue: 1 << 3)
}

/// The kinds of part an estimate's cheapest split holds, one bit each.
struct StrengthPatterns: OptionSet, Sendable, Hashable {
  let rawValue: UInt16
  static let commonPassword = StrengthPatterns(rawValue: 1 << 0)
  static let word = StrengthPatterns(rawValue: 1 << 1)
  static let substitutedWord = StrengthPatterns(rawValue: 1 << 2)
  static let contextWord = StrengthPatterns(rawValue: 1 << 3)
  static let repeated = StrengthPatterns(rawValue: 1 << 4)
  static let sequence = StrengthPatterns(rawValue: 1 << 5)
  static let keyboard = StrengthPatterns(rawValue: 1 << 6)
  static let date = StrengthPatterns(rawValue: 1 << 7)
  static let bruteForce = StrengthPatterns(rawValue: 1 << 8)
}
