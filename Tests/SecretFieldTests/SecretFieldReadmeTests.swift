import SecretField
import SecureMemory
import Testing

@Suite("The README example")
struct SecretFieldReadmeTests {
  @Test("runs as written (ReadmeSnippetTests checks the lines) and does what its comments say")
  func readmeExample() throws {
    var keys = try SecureBuffer(capacity: 16)
    try Array("hunter2!".utf8).withUnsafeBytes { raw in try keys.append(raw) }
    var drawn: [String] = []
    func draw(_ bytes: UnsafeRawBufferPointer) {
      drawn.append(String(decoding: bytes, as: UTF8.self))
    }
    func draw(_ glyph: Character) { drawn.append(String(glyph)) }
    func verify(_ password: UnsafeRawBufferPointer) -> Bool {
      Array(password) == Array("hunter2".utf8)
    }

    var field = try SecretFieldState(obfuscationMode: .revealLastTyped())  // policy: .default
    try field.insert(keys, at: .now)  // keys arrive in a SecureBuffer and are read in place
    field.deleteBackward()  // a whole character: 👨‍👩‍👧, 🇫🇷 or "e" + accent
    try field.toggleReveal()  // text, caret and selection stay exactly as they are
    let line = field.render(at: .now)  // cells, caret, selection, caps-lock hint; no text
    field.withSecret { text in  // draw revealed cells from inside the window
      for cell in line.cells {
        if case .revealed(let range) = cell.content {
          draw(UnsafeRawBufferPointer(rebasing: text[range]))
        } else {
          draw(line.maskGlyph)
        }
      }
    }
    let matches = field.withSecret { password in verify(password) }
    let password = field.takeSecret()  // the field ends; its buffer moves out, nothing copied

    #expect(drawn == ["h", "u", "n", "t", "e", "r", "2"])
    #expect(matches)
    let taken = password.withUnsafeBytes { Array($0) }
    #expect(taken == Array("hunter2".utf8))
  }
}
