import SecretField
import SecretFieldTerminal
import Testing

/// The common frame, a key typed at the end of a masked line, is drawn as the
/// glyph alone (`PromptRenderer.masksAppended`), without a layout of the
/// line. These tests hold it to a frame drawn in full: the same screen, and
/// the full frame wherever anything else changed.
@Suite("A key typed at the end of a masked line is drawn as its glyph alone")
struct AppendedMaskFrameTests {
  /// Types `text` one key per frame and returns the last frame's operations;
  /// `prepare` runs before the last key.
  static func typeEach(
    _ text: String, into driver: inout PromptDriver,
    beforeLast prepare: (inout PromptDriver) -> Void = { _ in }
  ) -> [ScreenOperation] {
    var last: [ScreenOperation] = []
    for (offset, character) in text.enumerated() {
      if offset == text.count - 1 { prepare(&driver) }
      driver.type(String(character))
      last = driver.draw()
    }
    return last
  }

  /// The screen `text` leaves when every frame is drawn in full.
  static func fullyDrawn(
    _ text: String, _ configuration: PromptConfiguration = PromptConfiguration(),
    columns: Int = 80, beforeLast prepare: (inout PromptDriver) -> Void = { _ in }
  ) throws -> (lines: [String], column: Int) {
    var driver = try PromptDriver(configuration, columns: columns)
    for (offset, character) in text.enumerated() {
      if offset == text.count - 1 { prepare(&driver) }
      driver.type(String(character))
      driver.redrawsAll = true
      driver.draw()
    }
    return (driver.screen.visibleLines, driver.screen.column)
  }

  @Test("the frame is the glyph, and the screen is the one full frames leave")
  func glyphAlone() throws {
    var driver = try PromptDriver()
    let last = Self.typeEach("hunter2", into: &driver)
    #expect(last == [.text("•")])
    let full = try Self.fullyDrawn("hunter2")
    #expect(driver.screen.visibleLines == full.lines)
    #expect(driver.screen.column == full.column)
    #expect(driver.screen.line(0) == "Password: •••••••")
  }

  @Test("control: the first frame of an entry is drawn in full, glyph and all")
  func firstFrame() throws {
    var driver = try PromptDriver()
    driver.type("h")
    let first = driver.draw()
    #expect(first != [.text("•")])
    #expect(first.writtenText.contains("Password: ") && first.writtenText.contains("•"))
  }

  @Test(
    "the full frame when the line has no room, a status line changes, or a character shows",
    arguments: AppendedMaskCase.allCases)
  func fullFrame(_ change: AppendedMaskCase) throws {
    var configuration = PromptConfiguration()
    var columns = 80
    var prepare: (inout PromptDriver) -> Void = { _ in }
    switch change {
    case .fullLine:
      // "Password: " takes 10 columns of 20, leaving 9 for the field.
      columns = 20
    case .capsLockHint:
      prepare = { $0.handle(.capsLock(isOn: true)) }
    case .revealLastTyped:
      configuration.obfuscationMode = .revealLastTyped(.seconds(5))
    case .revealedLine:
      configuration.allowsReveal = true
      prepare = { $0.keys(.tab) }
    case .redrawAll:
      prepare = { $0.redrawsAll = true }
    }
    let text = change == .fullLine ? "abcdefghij" : "hunter2"
    var driver = try PromptDriver(configuration, columns: columns)
    let last = Self.typeEach(text, into: &driver, beforeLast: prepare)
    #expect(last != [.text("•")])
    let full = try Self.fullyDrawn(text, configuration, columns: columns, beforeLast: prepare)
    #expect(driver.screen.visibleLines == full.lines)
    #expect(driver.screen.column == full.column)
  }
}

enum AppendedMaskCase: CaseIterable, Sendable {
  case fullLine, capsLockHint, revealLastTyped, revealedLine, redrawAll
}
