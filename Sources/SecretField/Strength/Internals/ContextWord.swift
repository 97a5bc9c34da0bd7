/// A word of the context (the user's name, a service's), prepared for
/// matching against the password's scalars without building any text from
/// the password.
///
/// Context words are not secret: they come from the caller.
struct ContextWord: Sendable, Hashable {
  /// The word's scalars, ASCII letters lower-cased (as zxcvbn-c lower-cases a
  /// user word).
  let scalars: [UInt32]
  /// For each scalar outside ASCII, its other case forms that are one scalar
  /// each (lower, upper, title; 0 where there is none), so that a password
  /// matches a word in any case in every script.
  let otherCases: [SIMD4<UInt32>]

  /// The word's length in code points.
  var count: Int { scalars.count }

  init(_ word: String) {
    var scalars: [UInt32] = []
    var otherCases: [SIMD4<UInt32>] = []
    for scalar in word.unicodeScalars {
      var value = scalar.value
      if (0x41...0x5A).contains(value) { value |= 0x20 }
      scalars.append(value)
      var forms = SIMD4<UInt32>(repeating: 0)
      if value >= 0x80 {
        let properties = scalar.properties
        for (index, mapping) in [
          properties.lowercaseMapping, properties.uppercaseMapping, properties.titlecaseMapping,
        ].enumerated() {
          let mapped = mapping.unicodeScalars
          if mapped.count == 1, let only = mapped.first { forms[index] = only.value }
        }
      }
      otherCases.append(forms)
    }
    self.scalars = scalars
    self.otherCases = otherCases
  }

  /// The words of `rules`, the user's name first: a word's index is its rank
  /// less one, as zxcvbn-c ranks a user dictionary. An empty word never
  /// matches.
  static func words(of rules: StrengthRules) -> [ContextWord] {
    (rules.userName.map { [$0] } ?? []).map(ContextWord.init)
      + rules.contextWords.map(ContextWord.init)
  }
}
