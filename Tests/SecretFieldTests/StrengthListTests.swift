import SecretField
import Testing

/// The bundled lists, as the generator wrote them.
@Suite("Strength lists: the bundled words")
struct StrengthListTests {
  @Test("198,506 words, 47,727 of them common passwords (at least zxcvbn's 30,000)")
  func counts() {
    let counts = StrengthJudge.bundledListCounts
    #expect(counts.words == 198_506)
    #expect(counts.passwords == 47_727)
  }

  @Test(
    "a word is found in any case; a word of the lists that is no password is not refused as one")
  func listMembership() {
    for password in ["1qaz2wsx3edc4rfv", "1QAZ2WSX3EDC4RFV", "123456789987654321"] {
      #expect(judgeStrength(password).reasons.map(\.rule).contains(.commonPassword), "\(password)")
    }
    // An English word and a surname of the lists, long enough, are on no password list.
    for word in ["internationalization", "constitutionality"] {
      let rules = judgeStrength(word).reasons.map(\.rule)
      #expect(!rules.contains(.commonPassword), "\(word)")
      #expect(rules.contains(.expectedValue), "\(word)")
    }
  }
}
