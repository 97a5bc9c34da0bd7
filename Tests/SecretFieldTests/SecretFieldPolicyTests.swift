import SecureMemory
import SecretField
import Testing

@Suite("Policy and host state: copy, cut, paste, capture, focus, last typed")
struct SecretFieldPolicyTests {
  @Test("copy and cut are refused by the default policy, in words naming no API; nothing changes")
  func copyCutRefused() throws {
    var field = try makeField("hunter2")
    field.select(1..<4)
    let before = field.snapshot
    var called = false
    let copyError = fieldError { () throws(FieldError) in try field.copy { _ in called = true } }
    let cutError = fieldError { () throws(FieldError) in try field.cut { _ in called = true } }
    #expect(copyError?.code == .copyRefused)
    #expect(copyError?.description == "copying is turned off for this password field")
    #expect(copyError?.description.contains("FieldPolicy") == false)
    #expect(cutError?.code == .cutRefused)
    #expect(cutError?.description == "cutting is turned off for this password field")
    #expect(!called)
    #expect(field.snapshot == before)
  }

  @Test("copy and cut hand out the selected bytes when the policy allows them")
  func copyCutAllowed() throws {
    var field = try makeField("hunter2", policy: [])
    field.select(1..<4)
    let copied = try field.copy { Array($0) }
    #expect(copied == Array("unt".utf8))
    #expect(field.string == "hunter2")
    let cut = try field.cut { Array($0) }
    #expect(cut == Array("unt".utf8))
    #expect(field.string == "her2")
    #expect(field.caret == 1)
  }

  @Test("paste is refused under noPaste and allowed without it")
  func pastePolicy() throws {
    var refusing = try makeField("abc", policy: .noPaste)
    let before = refusing.snapshot
    let error = fieldError { () throws(FieldError) in try refusing.paste("xyz") }
    #expect(error?.code == .pasteRefused)
    #expect(refusing.snapshot == before)
    try refusing.insert("d")
    #expect(refusing.string == "abcd", "typing is not pasting")

    var allowing = try makeField("abc", policy: .default)
    try allowing.paste("xyz")
    #expect(allowing.string == "abcxyz")
  }

  @Test("reveal is refused while captured under maskOnCapture, and capture re-masks")
  func captureRefusesReveal() throws {
    var field = try makeField("secret", mode: .visible)
    #expect(field.render(at: testEpoch).isRevealed)
    field.isCaptured = true
    #expect(field.obfuscationMode == .hidden, "capture ends a full reveal")
    let line = field.render(at: testEpoch)
    #expect(line.cells.allSatisfy { !$0.isRevealed })
    #expect(line.isMaskedForCapture)
    let before = field.snapshot
    let error = fieldError { () throws(FieldError) in try field.toggleReveal() }
    #expect(error?.code == .revealRefused)
    #expect(error?.description.contains("recorded") == true)
    #expect(field.snapshot == before)
    let direct = fieldError { () throws(FieldError) in try field.setObfuscationMode(.visible) }
    #expect(direct?.code == .revealRefused)
    field.isCaptured = false
    try field.toggleReveal()
    #expect(field.render(at: testEpoch).isRevealed)
  }

  @Test("control: without maskOnCapture, reveal works while captured")
  func captureWithoutPolicy() throws {
    var field = try makeField("secret", policy: [])
    field.isCaptured = true
    try field.toggleReveal()
    #expect(field.render(at: testEpoch).isRevealed)
  }

  @Test("the last typed character shows for the duration, then hides")
  func lastTypedExpires() throws {
    var field = try makeField("ab", mode: .revealLastTyped())
    field.moveCaret(.end)
    try field.insert("c", at: testEpoch)
    let shown = field.render(at: testEpoch + .seconds(1.4))
    #expect(shown.cells.map(\.isRevealed) == [false, false, true])
    #expect(field.revealedTexts(shown) == ["c"])
    #expect(shown.revealEndsAt == testEpoch + .seconds(1.5))
    let hidden = field.render(at: testEpoch + .seconds(1.5))
    #expect(hidden.cells.allSatisfy { !$0.isRevealed })
    #expect(hidden.revealEndsAt == nil)
  }

  @Test("a custom duration is honoured")
  func customDuration() throws {
    var field = try makeField(mode: .revealLastTyped(.milliseconds(200)))
    try field.insert("x", at: testEpoch)
    #expect(field.render(at: testEpoch + .milliseconds(199)).cells[0].isRevealed)
    #expect(!field.render(at: testEpoch + .milliseconds(200)).cells[0].isRevealed)
  }

  struct Hider: CustomTestStringConvertible, Sendable {
    let name: String
    let act: @Sendable (inout SecretFieldState) throws -> Void
    var testDescription: String { name }
  }

  @Test(
    "the last typed character hides at once on",
    arguments: [
      Hider(name: "focus loss") { $0.isFocused = false },
      Hider(name: "paste") { try $0.paste("z") },
      Hider(name: "a caret move") { $0.moveCaret(.left) },
      Hider(name: "a selection change") { $0.selectAll() },
      Hider(name: "capture") { $0.isCaptured = true },
      Hider(name: "a deletion") { $0.deleteBackward() },
    ])
  func lastTypedHides(_ hider: Hider) throws {
    var field = try makeField("ab", mode: .revealLastTyped())
    field.moveCaret(.end)
    try field.insert("c", at: testEpoch)
    let shown = field.render(at: testEpoch).cells.contains { $0.isRevealed }
    #expect(shown, "control")
    try hider.act(&field)
    #expect(field.render(at: testEpoch).cells.allSatisfy { !$0.isRevealed })
  }

  @Test("the next keystroke hides the previous character and shows the new one")
  func nextKeystroke() throws {
    var field = try makeField(mode: .revealLastTyped())
    try field.insert("a", at: testEpoch)
    try field.insert("b", at: testEpoch + .milliseconds(100))
    let line = field.render(at: testEpoch + .milliseconds(200))
    #expect(line.cells.map(\.isRevealed) == [false, true])
    #expect(field.revealedTexts(line) == ["b"])
  }

  @Test("a paste or a multi-character insert reveals nothing; without a time nothing shows")
  func nothingRevealed() throws {
    var field = try makeField(policy: [], mode: .revealLastTyped())
    try field.paste("p")
    try field.insert("xy", at: testEpoch)
    try field.insert("z")
    #expect(field.render(at: testEpoch).cells.allSatisfy { !$0.isRevealed })
  }

  @Test("losing focus ends a full reveal under remaskOnFocusLoss, and only then")
  func remaskOnFocusLoss() throws {
    var field = try makeField("pw", mode: .visible)
    field.isFocused = false
    #expect(field.obfuscationMode == .hidden)
    var control = try makeField("pw", policy: [.noCopy], mode: .visible)
    control.isFocused = false
    #expect(control.obfuscationMode == .visible)
  }

  @Test("caps lock on shows the hint while focused; unknown does not")
  func capsLockHint() throws {
    var field = try makeField("pw")
    #expect(!field.render(at: testEpoch).showsCapsLockHint)
    field.capsLock = .on
    #expect(field.render(at: testEpoch).showsCapsLockHint)
    field.isFocused = false
    #expect(!field.render(at: testEpoch).showsCapsLockHint)
    field.isFocused = true
    field.capsLock = .unknown
    #expect(!field.render(at: testEpoch).showsCapsLockHint)
  }

  @Test("a masked cell gives out no bytes; the mask glyph is configurable")
  func maskedCellsGiveNothing() throws {
    var field = try makeField("pw")
    field.maskGlyph = "*"
    let line = field.render(at: testEpoch)
    #expect(line.maskGlyph == "*")
    #expect(field.withRevealedBytes(of: line.cells[0]) { _ in true } == nil)
    #expect(field.maskedText == "**")
  }
}
