/// What a new password must meet to be accepted: the rules of NIST SP 800-63B-4
/// for a verifier that accepts passwords.
///
/// - A minimum length, counted in Unicode code points (each one character, as
///   NIST counts them): 15 when the password alone authenticates, 8 when it is
///   one factor of several.
/// - No maximum: a password is never refused for its length, so anything the
///   field holds (1,024 characters by default) is accepted, well past NIST's
///   64.
/// - No composition rules: no "one digit, one symbol".
/// - Not on the bundled list of common passwords, in any case.
/// - Not made of the context: the user's name and the words the caller gives
///   (the service, the host), found anywhere in it, in any case, reversed, and
///   with common substitutions (`@` for `a`, `0` for `o`, `1` for `i` or `l`).
/// - Not an expected value: a password the estimate takes for fewer than
///   ``minimumScore`` (a character repeated, a sequence, keys next to each
///   other on a keyboard, a list word with look-alike characters, a date)
///   is refused, with the patterns it found named.
public struct StrengthRules: Sendable, Hashable {
  /// The fewest code points a password may have. 15 by default.
  public var minimumLength: Int
  /// The user's name, or nil: refused inside the password, and counted by the
  /// estimate as the most guessable word of all.
  public var userName: String?
  /// Other words of the context, such as the service's or host's name: each
  /// refused inside the password, and counted by the estimate as guessable.
  ///
  /// Give each word on its own (`github`, `example.com`): a word is matched
  /// whole. Words of fewer than ``contextWordMinimumLength`` code points count
  /// in the estimate only.
  public var contextWords: [String]
  /// The lowest estimate accepted, as a zxcvbn score from 0 to 4. 2 by default:
  /// at least a million guesses, which zxcvbn describes as protection from
  /// throttled online attacks, the attack NIST's rules are written against.
  public var minimumScore: Int

  /// Context words shorter than this (in code points) are not refused on
  /// their own: a two-letter user name would refuse half of all passwords.
  public static let contextWordMinimumLength = 3

  /// Rules with the given minimum length, context and floor.
  ///
  /// - Precondition: `minimumLength` is 0 or more; `minimumScore` is 0 to 4.
  public init(
    minimumLength: Int = 15, userName: String? = nil, contextWords: [String] = [],
    minimumScore: Int = 2
  ) {
    precondition(minimumLength >= 0, "StrengthRules: the minimum length cannot be negative")
    precondition((0...4).contains(minimumScore), "StrengthRules: a score is 0 to 4")
    self.minimumLength = minimumLength
    self.userName = userName
    self.contextWords = contextWords
    self.minimumScore = minimumScore
  }

  /// For a password that authenticates alone: at least 15 code points.
  public static let singleFactor = StrengthRules()

  /// For a password that is one factor of several: at least 8 code points.
  public static let secondFactor = StrengthRules(minimumLength: 8)
}
