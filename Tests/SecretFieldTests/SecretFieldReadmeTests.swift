import SecretField
import SecureMemory
import Testing

@Suite("The README example")
struct SecretFieldReadmeTests {
  @Test("runs as written and does what its comments say")
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
    // Keys arrive in secure memory; `insert` reads them in place.
    try keys.withUnsafeBytes { try field.insert($0, at: .now) }
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
    field.clear()  // wipes the text

    #expect(drawn == ["h", "u", "n", "t", "e", "r", "2"])
    #expect(matches)
    let isEmpty = field.isEmpty
    #expect(isEmpty)
  }
}
