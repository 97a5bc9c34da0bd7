import SecretField
import SecretFieldTerminal
import Testing

/// The prompt writes a masked key's glyph as soon as the key is decoded, as
/// the renderer's `earlyEcho(of:payload:before:)` says, which records it; the
/// frame after the edit must then draw nothing for that key, and the screen
/// must be the one a full frame would have left.
@Suite("An early echo leaves the screen as a frame would, and the frame draws nothing again")
struct EarlyEchoTests {
  /// Types `text` through frames, then one key echoed early: the glyph written
  /// to the screen where the cursor is, noted, the edit made, a frame drawn.
  /// Returns the operations of that last frame.
  static func echoEarly(
    after text: String, key: String, noting: Bool = true, into driver: inout PromptDriver
  ) -> [ScreenOperation] {
    driver.typeDrawingEach(text)
    let before = driver.editor.field.count
    #expect(driver.renderer.canAppendMask(after: before))
    if noting {
      let glyph = driver.earlyEcho(of: Array(key.utf8))
      #expect(glyph != nil)
      driver.screen.write(String(decoding: glyph ?? [], as: UTF8.self))
    } else {
      // The glyph on the screen, but the renderer not told.
      driver.screen.write("•")
    }
    driver.type(key)
    return driver.draw()
  }

  @Test("the frame after an early echo writes no glyph and leaves the same screen")
  func noSecondGlyph() throws {
    var early = try PromptDriver()
    let operations = Self.echoEarly(after: "hunter", key: "2", into: &early)
    #expect(!operations.writtenText.contains("•"))
    #expect(operations.writtenText.isEmpty)

    var plain = try PromptDriver()
    plain.typeDrawingEach("hunter2")
    #expect(early.screen.visibleLines == plain.screen.visibleLines)
    #expect(early.screen.column == plain.screen.column)
    #expect(early.screen.line(0) == "Password: •••••••")
  }

  @Test("control: a glyph the renderer was not told of is drawn again by the frame")
  func withoutNote() throws {
    var driver = try PromptDriver()
    let operations = Self.echoEarly(after: "hunter", key: "2", noting: false, into: &driver)
    #expect(operations.writtenText.contains("•"))
  }

  @Test("no early echo when the line has no room for one more glyph")
  func fullLine() throws {
    // "Password: " takes 10 columns; 20 columns leave 9 for the field.
    var driver = try PromptDriver(columns: 20)
    driver.typeDrawingEach("abcdefgh")
    #expect(driver.renderer.canAppendMask(after: 8))
    driver.type("i")
    driver.draw()
    #expect(!driver.renderer.canAppendMask(after: 9))
  }

  @Test("an early echo the edit did not follow: the frame draws the line again, as it is")
  func echoNotFollowed() throws {
    var driver = try PromptDriver()
    driver.typeDrawingEach("abc")
    let glyph = driver.earlyEcho(of: Array("d".utf8))
    driver.screen.write(String(decoding: glyph ?? [], as: UTF8.self))
    #expect(driver.screen.line(0) == "Password: ••••")
    // No edit came (as if the field had refused the key): the frame must take
    // the glyph back off the screen.
    driver.draw()
    #expect(driver.screen.line(0) == "Password: •••")
  }

  @Test("no early echo for a key that is not one printable ASCII byte")
  func notPrintable() throws {
    var driver = try PromptDriver()
    driver.type("a")
    driver.draw()
    for bytes: [UInt8] in [[0x7F], [0x1B], [0xC3, 0xA9], [0x61, 0x62]] {
      let glyph = driver.earlyEcho(of: bytes)
      #expect(glyph == nil, "\(bytes)")
    }
  }

  @Test("no early echo with the caret inside the text, after a resize, or on a new entry")
  func otherStates() throws {
    var driver = try PromptDriver()
    driver.typeDrawingEach("abc")
    driver.keys(.moveLeft)
    driver.draw()
    #expect(!driver.renderer.canAppendMask(after: 3))
    driver.keys(.moveToEnd)
    driver.draw()
    #expect(driver.renderer.canAppendMask(after: 3))
    #expect(!driver.renderer.canAppendMask(after: 4))
    driver.renderer.invalidate()
    #expect(!driver.renderer.canAppendMask(after: 3))
    driver.draw()
    driver.renderer.startOnFreshLine()
    #expect(!driver.renderer.canAppendMask(after: 3))
  }
}
