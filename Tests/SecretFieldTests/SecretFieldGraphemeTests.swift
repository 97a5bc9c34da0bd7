import SecretField
import Testing

@Suite("A character is a grapheme cluster: one mask cell, removed whole")
struct SecretFieldGraphemeTests {
  struct Cluster: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    var testDescription: String { name }
  }

  static let clusters = [
    Cluster(name: "e with a combining acute", text: "e\u{301}"),
    Cluster(name: "e with two combining marks", text: "e\u{301}\u{323}"),
    Cluster(name: "family joined by ZWJ", text: "👨‍👩‍👧‍👦"),
    Cluster(name: "rainbow flag (ZWJ and variation selector)", text: "🏳️‍🌈"),
    Cluster(name: "flag of two regional indicators", text: "🇫🇷"),
    Cluster(name: "thumbs up with a skin-tone modifier", text: "👍🏽"),
    Cluster(name: "Hangul jamo L V T", text: "\u{1100}\u{1161}\u{11A8}"),
    Cluster(name: "Devanagari conjunct", text: "क्ष"),
  ]

  @Test("typed scalar by scalar, it is one masked cell between two letters", arguments: clusters)
  func oneCell(_ cluster: Cluster) throws {
    var field = try makeField()
    try field.insert("a")
    try field.typeScalars(cluster.text)
    try field.insert("b")
    #expect(field.string == "a" + cluster.text + "b")
    #expect(field.count == 3)
    let line = field.render(at: testEpoch)
    #expect(line.cells.count == 3)
    #expect(line.cells.allSatisfy { $0.content == .masked })
  }

  @Test("backspace removes the whole cluster", arguments: clusters)
  func backspaceRemovesCluster(_ cluster: Cluster) throws {
    var field = try makeField()
    try field.insert("a")
    try field.typeScalars(cluster.text)
    try field.insert("b")
    field.moveCaret(.left)
    field.deleteBackward()
    #expect(field.string == "ab")
    #expect(field.caret == 1)
    field.moveCaret(.start)
    try field.typeScalars(cluster.text)
    field.moveCaret(.start)
    field.deleteForward()
    #expect(field.string == "ab", "delete forward removes it whole too")
  }

  @Test("revealed, the cluster's bytes come back whole in one cell", arguments: clusters)
  func revealedWhole(_ cluster: Cluster) throws {
    var field = try makeField(mode: .visible)
    try field.typeScalars(cluster.text)
    let line = field.render(at: testEpoch)
    #expect(field.revealedTexts(line) == [cluster.text])
  }

  @Test("a combining mark typed after a letter joins it: the count stays")
  func combiningMarkJoins() throws {
    var field = try makeField()
    try field.insert("e")
    try field.insert("\u{301}")
    #expect(field.count == 1)
    #expect(field.caret == 1)
  }

  @Test("regional indicators pair from the start of their run as they are typed")
  func regionalIndicatorPairs() throws {
    var field = try makeField()
    try field.typeScalars("🇫🇷🇩🇪")
    #expect(field.count == 2)
    field.deleteBackward()
    #expect(field.string == "🇫🇷")
    // One indicator typed before a flag re-pairs the run: 🇩🇫 + 🇷.
    field.moveCaret(.start)
    try field.insert("🇩")
    #expect(field.count == "🇩🇫🇷".count)
    #expect(field.caret == 1)
    field.moveCaret(.end)
    field.deleteBackward()
    #expect(field.string == "🇩🇫")
  }

  @Test("a letter typed before a combining mark joins it, and the caret goes after both")
  func letterBeforeMark() throws {
    var field = try makeField()
    try field.insert("\u{301}x")
    #expect(field.count == 2)
    field.moveCaret(.start)
    try field.insert("e")
    #expect(field.string == "e\u{301}x")
    #expect(field.count == 2)
    #expect(field.caret == 1)
  }

  @Test("ASCII typed after a prepended mark (U+0600) joins it; after an ASCII letter it does not")
  func prependJoinsASCII() throws {
    var field = try makeField()
    try field.insert("\u{0600}")
    try field.insert("1")
    #expect(field.count == 1)
    try field.insert("2")
    #expect(field.count == 2)
    field.deleteBackward()
    field.deleteBackward()
    #expect(field.bytes == [])
  }
}
