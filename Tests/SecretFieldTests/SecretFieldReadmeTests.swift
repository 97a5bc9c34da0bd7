import Foundation
import SecretField
import SecureMemory
import Testing

/// The field-model article's `enterPassword`, run: its lines as the article
/// shows them (the second test checks that), with drawing that records what
/// it was given.
private func enterPassword(
  keys: borrowing SecureBuffer, drawRevealed: (UnsafeRawBufferPointer) -> Void,
  drawMask: (Character) -> Void
) throws -> SecureBuffer {
  var field = try SecretFieldState(obfuscationMode: .revealLastTyped())  // policy: .default
  try field.insert(keys, at: .now)  // keys arrive in a SecureBuffer and are read in place
  field.deleteBackward()  // a whole character: 👨‍👩‍👧, 🇫🇷 or "e" + accent
  try field.toggleReveal()  // text, caret and selection stay exactly as they are
  let line = field.render(at: .now)  // cells, caret, selection, caps-lock hint; no text
  field.withSecret { text in  // draw revealed cells from inside the window
    for cell in line.cells {
      if case .revealed(let range) = cell.content {
        drawRevealed(UnsafeRawBufferPointer(rebasing: text[range]))
      } else {
        drawMask(line.maskGlyph)
      }
    }
  }
  return field.takeSecret()  // the field ends; its buffer moves out, nothing copied
}

/// The article, relative to this file.
private let article = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Sources/SecretField/SecretField.docc/TheFieldModel.md")

@Suite("The field-model article's example")
struct SecretFieldReadmeTests {
  @Test("does what its comments say")
  func articleExample() throws {
    var keys = try SecureBuffer(capacity: 16)
    try Array("hunter2!".utf8).withUnsafeBytes { raw in try keys.append(raw) }
    var drawn: [String] = []
    let password = try enterPassword(
      keys: keys, drawRevealed: { drawn.append(String(decoding: $0, as: UTF8.self)) },
      drawMask: { drawn.append(String($0)) })
    #expect(drawn == ["h", "u", "n", "t", "e", "r", "2"])
    let taken = password.withUnsafeBytes { Array($0) }
    #expect(taken == Array("hunter2".utf8))
  }

  @Test("runs the article's lines: every line of its enterPassword body is in this test")
  func sameLines() throws {
    func normalized(_ line: Substring) -> String {
      line.split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }
    let text = try String(contentsOf: article, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("func enterPassword(") })
    let end = try #require(lines[start...].firstIndex { $0 == "}" })
    let body = lines[(start + 1)..<end].map(normalized)
    #expect(body.count >= 10)
    let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let testLines = Set(test.split(separator: "\n").map(normalized))
    for line in body {
      #expect(testLines.contains(line), "the test does not run this line of the article: \(line)")
    }
  }
}
