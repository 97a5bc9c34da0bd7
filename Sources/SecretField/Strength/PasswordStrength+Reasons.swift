extension PasswordStrength {
  /// Why the password was refused, one reason per rule it breaks (one per
  /// context word found, one per kind of expected pattern), in the order of
  /// ``StrengthReason/Rule``; empty when it was accepted.
  ///
  /// - Complexity: builds the words on each call; a front end that redraws
  ///   after every key and shows only ``summary`` need not call it.
  public var reasons: [StrengthReason] {
    var reasons: [StrengthReason] = []
    if broken.contains(.minimumLength) {
      let noun = length == 1 ? "character" : "characters"
      reasons.append(
        StrengthReason(.minimumLength, "\(length) \(noun); at least \(rules.minimumLength)"))
    }
    if broken.contains(.commonPassword) {
      reasons.append(StrengthReason(.commonPassword, "on a list of common passwords"))
    }
    if broken.contains(.contextWord) {
      for (index, word) in contextWordList.enumerated() where contextWordsFound >> index & 1 == 1 {
        let words =
          index == 0 && rules.userName != nil
          ? "contains your user name" : "contains the context word \"\(word)\""
        reasons.append(StrengthReason(.contextWord, words))
      }
    }
    if broken.contains(.expectedValue) {
      // A pattern another rule has named already is not named twice.
      var said: StrengthPatterns = []
      if broken.contains(.commonPassword) { said.insert(.commonPassword) }
      if broken.contains(.contextWord) { said.insert(.contextWord) }
      let named = Self.patternWords.filter { pattern, _ in
        patterns.contains(pattern) && !said.contains(pattern)
      }
      for (_, words) in named {
        reasons.append(StrengthReason(.expectedValue, "easy to guess: \(words)"))
      }
      if named.isEmpty && patterns.isDisjoint(with: said) {
        reasons.append(
          StrengthReason(
            .expectedValue, "easy to guess: score \(score) of 4; at least \(rules.minimumScore)"))
      }
    }
    return reasons
  }

  /// One short line for a strength meter beside a bar of ``score``:
  /// `refused: ` and the first reason, or `accepted: ` and how strong.
  public var summary: String {
    if let first = reasons.first { return "refused: \(first.description)" }
    let words = ["very weak", "weak", "fair", "good", "strong"][score]
    return "accepted: \(words) (score \(score) of 4)"
  }

  /// The context words in the judge's order: the user name, then the others.
  var contextWordList: [String] {
    (rules.userName.map { [$0] } ?? []) + rules.contextWords
  }

  /// The words for each pattern, in the order reasons list them.
  private static let patternWords: [(StrengthPatterns, String)] = [
    (.commonPassword, "a common password"),
    (.word, "a common word or name"),
    (.substitutedWord, "a common word with look-alike characters, such as P@ssw0rd"),
    (.contextWord, "your user name or a word of this context"),
    (.repeated, "a character or a part repeated"),
    (.sequence, "a sequence, such as abcd or 2468"),
    (.keyboard, "keys next to each other on a keyboard"),
    (.date, "a date or a year"),
  ]
}
