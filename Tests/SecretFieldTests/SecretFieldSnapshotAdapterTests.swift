import SecureMemory
import SecretField
import Testing

@Suite("Host adapters rebuild edits from masked snapshots and UTF-16 ranges")
struct SecretFieldSnapshotAdapterTests {
  /// One edit in a host field showing mask glyphs: `snapshot` uses "•" for the
  /// characters that were there.
  struct Edit: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let selection: Range<Int>
    let snapshot: String
    var caretAfterEdit: Int? = nil
    let expected: String
    let replaced: Range<Int>
    var testDescription: String { name }
  }

  static let edits = [
    Edit(
      name: "type at the end", text: "abc", selection: 3..<3, snapshot: "•••d", expected: "abcd",
      replaced: 3..<3),
    Edit(
      name: "type at the start", text: "abc", selection: 0..<0, snapshot: "x•••",
      expected: "xabc", replaced: 0..<0),
    Edit(
      name: "type in the middle", text: "abc", selection: 1..<1, snapshot: "•x••",
      expected: "axbc", replaced: 1..<1),
    Edit(
      name: "paste in the middle", text: "abc", selection: 2..<2, snapshot: "••XY Z•",
      expected: "abXY Zc", replaced: 2..<2),
    Edit(
      name: "replace a selection in the middle", text: "abcd", selection: 1..<3,
      snapshot: "•Q•", expected: "aQd", replaced: 1..<3),
    Edit(
      name: "select all and type", text: "abcd", selection: 0..<4, snapshot: "n",
      expected: "n", replaced: 0..<4),
    Edit(
      name: "select all and paste", text: "abcd", selection: 0..<4, snapshot: "new pässwörd",
      expected: "new pässwörd", replaced: 0..<4),
    Edit(
      name: "delete a selected range", text: "abcdef", selection: 1..<4, snapshot: "•••",
      expected: "aef", replaced: 1..<4),
    Edit(
      name: "select all and delete", text: "abc", selection: 0..<3, snapshot: "", expected: "",
      replaced: 0..<3),
    Edit(
      name: "backspace at the end", text: "abc", selection: 3..<3, snapshot: "••",
      expected: "ab", replaced: 2..<3),
    Edit(
      name: "word delete at the end", text: "abcdef", selection: 6..<6, snapshot: "•••",
      expected: "abc", replaced: 3..<6),
    Edit(
      name: "forward delete at the start", text: "abc", selection: 0..<0, snapshot: "••",
      expected: "bc", replaced: 0..<1),
    Edit(
      name: "backspace in the middle, caret reported", text: "abc", selection: 2..<2,
      snapshot: "••", caretAfterEdit: 1, expected: "ac", replaced: 1..<2),
    Edit(
      name: "forward delete in the middle, caret reported", text: "abc", selection: 2..<2,
      snapshot: "••", caretAfterEdit: 2, expected: "ab", replaced: 2..<3),
    Edit(
      name: "combining accent typed after a masked letter", text: "abe", selection: 3..<3,
      snapshot: "•••\u{301}", expected: "abe\u{301}", replaced: 3..<3),
    Edit(
      name: "emoji typed in the middle", text: "ab", selection: 1..<1, snapshot: "•👨‍👩‍👧•",
      expected: "a👨‍👩‍👧b", replaced: 1..<1),
    Edit(
      name: "nothing changed, nothing selected", text: "abc", selection: 1..<1,
      snapshot: "•••", expected: "abc", replaced: 1..<1),
  ]

  @Test("an edit anywhere is rebuilt exactly", arguments: edits)
  func rebuildsEdit(_ edit: Edit) throws {
    var field = try makeField(edit.text)
    let replaced = try field.applyMaskedSnapshot(
      edit.snapshot, previousSelection: edit.selection, caretAfterEdit: edit.caretAfterEdit)
    #expect(field.string == edit.expected)
    #expect(replaced == edit.replaced)
    #expect(field.maskedText.count == edit.expected.count)
  }

  /// The common workaround: keep the new non-glyph characters, appended, and drop
  /// characters from the end when the text got shorter.
  static func naiveRebuild(_ text: String, _ snapshot: String) -> String {
    let typed = snapshot.filter { $0 != "•" }
    let kept = snapshot.count - typed.count
    return String(text.prefix(kept)) + typed
  }

  @Test("control: the naive rebuild gets the mid-text cases wrong, so they discriminate")
  func naiveFails() {
    let wrong = Self.edits.filter { Self.naiveRebuild($0.text, $0.snapshot) != $0.expected }
    #expect(wrong.count >= 6, "\(wrong.map(\.name))")
    #expect(wrong.contains { $0.name == "type in the middle" })
  }

  struct Ambiguity: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let selection: Range<Int>
    let snapshot: String
    var code: FieldError.Code = .ambiguousEdit
    var testDescription: String { name }
  }

  @Test(
    "an ambiguous snapshot is reported, not guessed, and the field stays",
    arguments: [
      Ambiguity(
        name: "deletion on either side of the caret, caret not reported", text: "abc",
        selection: 2..<2, snapshot: "••"),
      Ambiguity(
        name: "the mask glyph typed at the end", text: "abc", selection: 3..<3,
        snapshot: "••••"),
      Ambiguity(
        name: "new text containing the mask glyph", text: "abc", selection: 3..<3,
        snapshot: "•••x•y"),
      Ambiguity(
        name: "a glyph typed at the edge of new text over a selection", text: "abc",
        selection: 1..<2, snapshot: "••x•"),
      Ambiguity(
        name: "a selection that may have been retyped as glyphs", text: "abc",
        selection: 0..<1, snapshot: "•••"),
      Ambiguity(
        name: "new text away from the selection", text: "abc", selection: 0..<0,
        snapshot: "•x••"),
      Ambiguity(
        name: "more deleted than was selected", text: "abcd", selection: 1..<3, snapshot: "•"),
      Ambiguity(
        name: "two separate insertions", text: "abc", selection: 0..<0, snapshot: "x•y••"),
      Ambiguity(
        name: "a selection outside the text", text: "abc", selection: 0..<9, snapshot: "",
        code: .outOfSync),
      Ambiguity(
        name: "a control character in the new text", text: "abc", selection: 3..<3,
        snapshot: "•••\t", code: .controlCharacter),
    ])
  func ambiguous(_ ambiguity: Ambiguity) throws {
    var field = try makeField(ambiguity.text)
    let before = field.snapshot
    let error = fieldError { () throws(FieldError) in
      try field.applyMaskedSnapshot(ambiguity.snapshot, previousSelection: ambiguity.selection)
    }
    #expect(error?.code == ambiguity.code, "\(String(describing: error))")
    #expect(field.snapshot == before)
  }

  @Test("a snapshot of a field with a custom glyph is read with that glyph")
  func customGlyph() throws {
    var field = try makeField("ab")
    field.maskGlyph = "*"
    try field.applyMaskedSnapshot("*•*", previousSelection: 1..<1)
    #expect(field.string == "a•b", "with '*' as the glyph, a typed '•' is plain text")
  }

  @Test("UTF-16 ranges over a masked line count one unit per glyph")
  func utf16Masked() throws {
    var field = try makeField("abc")
    try field.replace(utf16Range: 1..<2, with: "XY", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "aXYc")
    #expect(field.caret == 3)
    try field.replace(utf16Range: 4..<4, with: "😀", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "aXYc😀")
    try field.replace(utf16Range: 0..<5, with: "", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "")
  }

  @Test("UTF-16 ranges over a revealed line count the characters' own units")
  func utf16Revealed() throws {
    var field = try makeField("a😀e\u{301}b", mode: .visible)
    // Units: a 1, 😀 2, é 2, b 1.
    try field.replace(utf16Range: 3..<5, with: "E", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "a😀Eb")
    try field.replace(utf16Range: 1..<3, with: "", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "aEb")
  }

  @Test("UTF-16 ranges count a two-unit mask glyph as two units")
  func utf16WideGlyph() throws {
    var field = try makeField("abc")
    field.maskGlyph = "🔒"
    try field.replace(utf16Range: 2..<4, with: "B", displayedAs: field.render(at: testEpoch))
    #expect(field.string == "aBc")
  }

  @Test("a UTF-16 range that splits a character, runs past the end or uses a stale line is refused")
  func utf16Refused() throws {
    var field = try makeField("a😀b", mode: .visible)
    let line = field.render(at: testEpoch)
    let before = field.snapshot
    for range in [2..<3, 0..<9, 5..<5] {
      let error = fieldError { () throws(FieldError) in
        try field.replace(utf16Range: range, with: "x", displayedAs: line)
      }
      #expect(error?.code == .outOfSync, "\(range)")
      #expect(field.snapshot == before)
    }
    try field.insert("c")
    let stale = fieldError { () throws(FieldError) in
      try field.replace(utf16Range: 0..<1, with: "x", displayedAs: line)
    }
    #expect(stale?.code == .outOfSync)
  }
}
