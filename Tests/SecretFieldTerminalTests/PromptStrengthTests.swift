import SecretField
import SecretFieldTerminal
import Testing

/// A prompt that judges a new password (`PromptConfiguration.strength`): the
/// strength line after an edit, Enter refused on a refused password with the
/// text kept, a confirmation's second entry not judged.
@Suite("The prompt's strength line and the refused submit")
struct PromptStrengthTests {
  static func configuration(minimumLength: Int = 15) -> PromptConfiguration {
    var configuration = PromptConfiguration()
    configuration.strength = StrengthRules(minimumLength: minimumLength, userName: "adalovelace")
    return configuration
  }

  @Test("the line follows the edits: a common password, then a strong one, then nothing")
  func lineFollowsEdits() throws {
    var driver = try PromptDriver(Self.configuration(minimumLength: 8))
    var changed = driver.judge(.keystroke)
    #expect(!changed, "nothing typed yet")
    driver.type("password1")
    let stale = driver.isStrengthStale
    #expect(stale)
    changed = driver.judge(.keystroke)
    #expect(changed)
    var text = driver.strengthText
    #expect(text == "Strength [░░░░░░░░] refused: on a list of common passwords")
    changed = driver.judge(.keystroke)
    #expect(!changed, "judged once an edit")
    driver.type("-violet-anchor-47")
    changed = driver.judge(.keystroke)
    #expect(changed)
    text = driver.strengthText
    let strong = try #require(text)
    #expect(strong.hasPrefix("Strength [████████] accepted: "), "\(strong)")
    driver.draw()
    let lines = driver.screen.visibleLines
    #expect(lines.contains(strong), "\(lines)")
    driver.handle(.deleteToStart)
    changed = driver.judge(.keystroke)
    text = driver.strengthText
    #expect(changed)
    #expect(text == nil, "an empty field shows no line")
  }

  @Test("Enter on a refused password: the bell, every reason, the text kept")
  func refusedSubmit() throws {
    var driver = try PromptDriver(Self.configuration())
    driver.type("password1")
    let refused = driver.handle(.submit)
    #expect(refused.outcome == nil && refused.ringsBell)
    let message = driver.editor.message ?? ""
    #expect(
      message.hasPrefix("Not accepted: 9 characters; at least 15 · on a list of common passwords"),
      "\(message)")
    #expect(driver.text == "password1")
    let text = driver.strengthText
    #expect(text?.contains("refused: 9 characters; at least 15") == true, "\(text ?? "")")
    driver.type("-violet-anchor-47")
    #expect(driver.handle(.submit).outcome == .submit)
    #expect(driver.text == "password1-violet-anchor-47")
  }

  @Test("the user's name, in any case, is a reason")
  func userName() throws {
    var driver = try PromptDriver(Self.configuration())
    driver.type("violet-ADALOVELACE-anchor")
    #expect(driver.handle(.submit).outcome == nil)
    let message = driver.editor.message ?? ""
    #expect(message == "Not accepted: contains your user name.", "\(message)")
  }

  @Test("control: without rules nothing is judged and Enter takes anything")
  func withoutRules() throws {
    var driver = try PromptDriver()
    driver.type("password1")
    let changed = driver.judge(.keystroke)
    let text = driver.strengthText
    #expect(!changed && text == nil)
    #expect(driver.handle(.submit).outcome == .submit)
  }

  @Test("a confirmation's second entry is not judged; a new first entry is")
  func secondEntryNotJudged() throws {
    var driver = try PromptDriver(Self.configuration())
    driver.type("password1")
    driver.judge(.keystroke)
    driver.editor.startEntry(message: nil, judgesStrength: false)
    var text = driver.strengthText
    #expect(text == nil)
    driver.type("password1")
    var changed = driver.judge(.keystroke)
    #expect(!changed)
    #expect(driver.handle(.submit).outcome == .submit, "the pair's comparison decides")
    driver.editor.startEntry(message: nil)
    driver.type("password1")
    changed = driver.judge(.keystroke)
    text = driver.strengthText
    #expect(changed && text != nil)
    #expect(driver.handle(.submit).outcome == nil)
  }

  @Test("a budget too small cuts the estimate short, and the line says so")
  func cutShort() throws {
    var driver = try PromptDriver(Self.configuration())
    driver.type("violet-anchor-47-drum")
    let changed = driver.judge(StrengthBudget(steps: 1))
    let text = driver.strengthText
    #expect(changed)
    #expect(text?.hasSuffix(" …") == true, "\(text ?? "")")
    #expect(driver.handle(.submit).outcome == .submit, "Enter judges in full")
  }

  @Test("an ASCII terminal draws the bar with # and -")
  func asciiBar() throws {
    let locale = TerminalLocale(environment: ["LANG": "C"])
    var driver = try PromptDriver(Self.configuration(minimumLength: 8), locale: locale)
    driver.type("password1")
    driver.judge(.keystroke)
    let text = driver.strengthText
    #expect(text == "Strength [--------] refused: on a list of common passwords")
  }
}

extension PromptDriver {
  /// Judges the field for the strength line, as the prompt does after a frame.
  @discardableResult
  mutating func judge(_ budget: StrengthBudget) -> Bool {
    editor.judgeStrength(budget: budget)
  }

  /// The strength line's text.
  var strengthText: String? { editor.strengthLine.text }

  /// True when an edit left the strength line to judge again.
  var isStrengthStale: Bool { editor.strengthLine.isStale }
}
