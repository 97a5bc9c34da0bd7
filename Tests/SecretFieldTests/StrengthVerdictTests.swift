import SecretField
import SecureMemory
import Testing

/// The verdicts on known passwords, rule by rule, and the words of their
/// reasons.
@Suite("Strength verdicts: NIST's rules on known passwords")
struct StrengthVerdictTests {
  /// A password, the rules it is judged by, and the rules it must break (none:
  /// accepted).
  struct Case: CustomTestStringConvertible, Sendable {
    let password: String
    var rules = StrengthRules()
    let broken: Set<StrengthReason.Rule>
    let note: String
    var testDescription: String { "\(note): \(password.prefix(40))" }
  }

  static let cases: [Case] = [
    Case(
      password: "password", broken: [.minimumLength, .commonPassword], note: "a common password"),
    Case(
      password: "PASSWORD", broken: [.minimumLength, .commonPassword],
      note: "a common password in capitals"),
    // Also too guessable, but the list already says why: one reason.
    Case(
      password: "1qaz2wsx3edc4rfv", broken: [.commonPassword],
      note: "a common password of 16 characters"),
    Case(
      password: "xXadalovelaceXx2024!", rules: StrengthRules(userName: "adalovelace"),
      broken: [.contextWord], note: "the user's name inside"),
    Case(
      password: "Ad4L0v3l4c3-was-here-2024", rules: StrengthRules(userName: "AdaLovelace"),
      broken: [.contextWord], note: "the user's name in another case, with look-alikes"),
    Case(
      password: "ecalevoladaXYZ123-qq", rules: StrengthRules(userName: "adalovelace"),
      broken: [.contextWord], note: "the user's name reversed"),
    Case(
      password: "myGitHubPassphrase!!2024", rules: StrengthRules(contextWords: ["github"]),
      broken: [.contextWord], note: "a context word"),
    Case(
      password: "kqzmvtwpxjrbnsh-Émilie", rules: StrengthRules(userName: "émilie"),
      broken: [.contextWord], note: "a user name outside ASCII, in capitals"),
    Case(
      password: "1nt3rn4t10n4l1z4t10n", broken: [.expectedValue],
      note: "a list word with look-alikes"),
    Case(
      password: "P@ssw0rd", rules: .secondFactor, broken: [.commonPassword, .expectedValue],
      note: "P@ssw0rd, 8 characters for a second factor"),
    Case(password: "kqzmvtw", broken: [.minimumLength], note: "too short, random"),
    Case(
      password: "aaaaaaaaaaaaaaaa", broken: [.expectedValue], note: "a character repeated"),
    Case(password: "1234567890123456", broken: [.expectedValue], note: "a sequence"),
    Case(password: "abcdefghijklmnop", broken: [.expectedValue], note: "a sequence of letters"),
    Case(password: "qwertyuiopasdfgh", broken: [.expectedValue], note: "keyboard rows"),
    Case(password: "zxcvbnm,./asdfgh", broken: [.expectedValue], note: "a keyboard walk"),
    Case(password: "internationalization", broken: [.expectedValue], note: "one list word"),
    Case(password: "kqzmvtwpxjrbnsh", broken: [], note: "15 random letters"),
    Case(password: "x7#Qp!vR2m@Lz9k", broken: [], note: "15 random characters"),
    Case(
      password: "the quick brown fox jumps over the lazy dog as seven wizards hum",
      broken: [], note: "a passphrase of 64 characters"),
    Case(
      password: "correcthorsebatterystaplezebra", broken: [],
      note: "no composition rule: lower-case letters only"),
    Case(
      password: String(repeating: "kqzmvtwpxjrbnsh7", count: 8) + "Zq",
      broken: [], note: "130 characters: no maximum"),
    Case(password: "", broken: [.minimumLength, .expectedValue], note: "empty"),
    Case(
      password: "ab", rules: StrengthRules(minimumLength: 0, minimumScore: 0), broken: [],
      note: "no minimum at all"),
  ]

  @Test("each password breaks exactly its rules", arguments: cases)
  func verdict(_ test: Case) {
    let strength = judgeStrength(test.password, rules: test.rules)
    let broken = Set(strength.reasons.map(\.rule))
    #expect(broken == test.broken, "\(strength.reasons)")
    #expect(strength.verdict == (test.broken.isEmpty ? .accepted : .refused))
    #expect(strength.isAccepted == test.broken.isEmpty)
    #expect(strength.isComplete)
    #expect((0...4).contains(strength.score))
  }

  @Test("the reasons say the rule in plain words")
  func reasonWords() {
    let rules = StrengthRules(userName: "adalovelace", contextWords: ["github"])
    #expect(
      judgeStrength("password", rules: rules).reasons.map(\.description) == [
        "8 characters; at least 15", "on a list of common passwords",
      ])
    #expect(
      judgeStrength("ada-lovelace-github-xyzzy", rules: rules).reasons.map(\.description) == [
        "contains the context word \"github\""
      ])
    #expect(
      judgeStrength("ADALOVELACE-github-xyzzy", rules: rules).reasons.map(\.description) == [
        "contains your user name", "contains the context word \"github\"",
      ])
    #expect(
      judgeStrength("abcdefghijklmnop").reasons.map(\.description) == [
        "easy to guess: a sequence, such as abcd or 2468"
      ])
    #expect(
      judgeStrength("aaaaaaaaaaaaaaaa").reasons.map(\.description) == [
        "easy to guess: a character or a part repeated"
      ])
    #expect(
      judgeStrength("1nt3rn4t10n4l1z4t10n").reasons.map(\.description) == [
        "easy to guess: a common word with look-alike characters, such as P@ssw0rd"
      ])
    #expect(judgeStrength("a").reasons.first?.description == "1 character; at least 15")
  }

  @Test("the length is counted in code points, not bytes or clusters")
  func lengthInCodePoints() {
    // 17 code points, 51 bytes of UTF-8; "e" + U+0301 is one cluster, two code points.
    let japanese = "日本語のパスワードはとても長いです"
    #expect(judgeStrength(japanese).length == 17)
    #expect(judgeStrength(japanese, rules: StrengthRules(minimumLength: 17)).reasons.isEmpty)
    #expect(
      judgeStrength(japanese, rules: StrengthRules(minimumLength: 18)).reasons.map(\.description)
        == ["17 characters; at least 18"])
    #expect(judgeStrength("e\u{301}").length == 2)
  }

  @Test("bytes that are not UTF-8 count one character each and are judged, not trusted")
  func invalidUTF8() {
    var judge = try! StrengthJudge()
    var buffer = try! SecureBuffer(capacity: 20)
    let bytes: [UInt8] = [0xFF, 0xFE, 0x80] + Array("kqzmvtwpxjrbnsh".utf8)
    bytes.withUnsafeBytes { try! buffer.append($0) }
    let strength = judge.judge(buffer)
    #expect(strength.length == 18)
    #expect(strength.isAccepted)
  }

  @Test("the summary gives the first reason, or how strong")
  func summary() {
    #expect(judgeStrength("password").summary == "refused: 8 characters; at least 15")
    #expect(judgeStrength("kqzmvtwpxjrbnsh").summary == "accepted: strong (score 4 of 4)")
  }

  @Test("the second factor's rules want 8 code points, and still the list")
  func secondFactor() {
    #expect(judgeStrength("kqzmvtwp", rules: .secondFactor).isAccepted)
    #expect(!judgeStrength("kqzmvtw", rules: .secondFactor).isAccepted)
    #expect(
      judgeStrength("sunshine", rules: .secondFactor).reasons.map(\.rule).contains(
        .commonPassword))
  }

  @Test("a field's text is judged in place, as the same bytes in a buffer are")
  func fieldText() throws {
    var judge = try StrengthJudge(rules: StrengthRules(userName: "adalovelace"))
    var field = try SecretFieldState()
    try field.insert("xXadalovelaceXx2024!")
    let fromField = field.strength(judgedBy: &judge)
    let fromBuffer = judgeStrength("xXadalovelaceXx2024!", rules: judge.rules)
    #expect(fromField == fromBuffer)
    #expect(fromField.reasons.map(\.rule) == [.contextWord])
  }

  @Test("one judge judges many passwords, each as a new judge would")
  func judgeIsReusable() throws {
    var judge = try StrengthJudge()
    for password in ["password", String(repeating: "z", count: 120), "kqzmvtwpxjrbnsh", "a"] {
      var buffer = try SecureBuffer(capacity: 200)
      Array(password.utf8).withUnsafeBytes { try! buffer.append($0) }
      #expect(judge.judge(buffer) == judgeStrength(password))
    }
  }
}
