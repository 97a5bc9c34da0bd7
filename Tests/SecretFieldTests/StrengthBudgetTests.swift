import SecretField
import TestSupport
import Testing

/// The work budget: a count of steps, so the same text under the same budget
/// always gives the same answer, and the rules that need no estimate hold
/// whatever it is.
@Suite("Strength budget: cut off by steps, not by a clock")
struct StrengthBudgetTests {
  static let passwords = [
    "kqzmvtwpxjrbnsh", "correct horse battery staple", "1qaz2wsx3edc4rfv",
    String(repeating: "a", count: 64), String(repeating: "1l|7!", count: 20),
  ]

  @Test(
    "a budget of exactly the steps taken completes; one step fewer is cut", arguments: passwords)
  func exactBudget(_ password: String) {
    let full = judgeStrength(password)
    #expect(full.isComplete)
    #expect(full.stepsTaken > 0)
    let enough = judgeStrength(password, budget: StrengthBudget(steps: full.stepsTaken))
    #expect(enough == full)
    let short = judgeStrength(password, budget: StrengthBudget(steps: full.stepsTaken - 1))
    #expect(!short.isComplete)
    #expect(short.stepsTaken == full.stepsTaken - 1)
  }

  @Test("a cut estimate only overstates the guesses", arguments: passwords)
  func cutOverstates(_ password: String) {
    let full = judgeStrength(password)
    for steps in [0, 10, full.stepsTaken / 2] {
      let cut = judgeStrength(password, budget: StrengthBudget(steps: steps))
      #expect(cut.guessesLog10 >= full.guessesLog10 - 1e-9)
      #expect(cut.length == full.length)
    }
  }

  @Test("the same text under the same budget gives the same answer")
  func deterministic() {
    for password in Self.passwords {
      let budget = StrengthBudget(steps: 300)
      #expect(judgeStrength(password, budget: budget) == judgeStrength(password, budget: budget))
    }
  }

  @Test("length, the list and the context are judged in full under no budget at all")
  func rulesWithoutEstimate() {
    let rules = StrengthRules(userName: "adalovelace")
    let none = StrengthBudget(steps: 0)
    #expect(
      judgeStrength("password", rules: rules, budget: none).reasons.map(\.rule).contains(
        .commonPassword))
    #expect(
      judgeStrength("1qaz2wsx3edc4rfv", rules: rules, budget: none).reasons.map(\.rule)
        .contains(.commonPassword))
    #expect(
      judgeStrength("zz-AdaLovelace-zz-2024", rules: rules, budget: none).reasons.map(\.rule)
        == [.contextWord])
    #expect(
      judgeStrength("short", rules: rules, budget: none).reasons.map(\.rule).first
        == .minimumLength)
    // Control: the estimate itself did stop.
    #expect(!judgeStrength("password", rules: rules, budget: none).isComplete)
  }

  @Test("the keystroke budget covers passwords a person types, up to 64 characters")
  func keystrokeBudget() {
    var generator = SeededGenerator(seed: 64)
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%-_ ")
    for length in [8, 20, 40, 64] {
      for _ in 0..<50 {
        let password = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        #expect(judgeStrength(password, budget: .keystroke).isComplete, "\(password)")
      }
    }
    for password in VariedPasswords.all where password.count <= 64 {
      #expect(judgeStrength(password, budget: .keystroke).isComplete, "\(password)")
    }
    #expect(judgeStrength(String(repeating: "a", count: 64), budget: .keystroke).isComplete)
  }
}
