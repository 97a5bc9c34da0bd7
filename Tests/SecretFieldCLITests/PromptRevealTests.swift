import PTYSupport
import Testing

@Suite("secretfield prompt: reveal, through a pty and a terminal emulator")
struct PromptRevealTests {
  @Test(
    "Tab shows the text, Tab again only masks, the caret stays; after submit nothing revealed is left"
  )
  func reveal() throws {
    let session = try startPrompt()
    try session.type("hunter2")
    try session.type(Key.left)
    try session.type(Key.left)
    let masked = try session.waitForScreen("the caret two back") {
      $0.shows("Password: •••••••") && $0.cursorColumn == 15
    }
    #expect(!masked.contains("hunter2"))
    try session.type(Key.tab)
    // The control: the screen the test reads does show revealed text. A frame
    // may reach the emulator in more than one read: wait for all of it, the
    // caret last, so a caret that moved never comes.
    try session.waitForScreen("the text shown, the hint to hide it, the caret where it was") {
      $0.shows("Password: hunter2") && $0.shows("Tab hide")
        && $0.cursorColumn == masked.cursorColumn
    }
    try session.type(Key.tab)
    let maskedAgain = try session.waitForScreen("the text masked again, the caret where it was") {
      $0.shows("Password: •••••••") && $0.shows("Tab show")
        && $0.cursorColumn == masked.cursorColumn
    }
    #expect(!maskedAgain.contains("hunter2"))
    try session.type(Key.tab)
    try session.waitForText("Password: hunter2")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    let after = try session.screen()
    #expect(!after.contains("hunter2"), "\(after)")
    #expect(after.shows("Password: •••••••"))
    #expect(!after.shows("Tab hide"), "the hint line is erased")
    #expect(try session.standardOutput() == "hunter2\n")
  }

  @Test("nothing revealed is left in the scrollback either, after the screen scrolled")
  func scrollback() throws {
    var options = TerminalSession.Options()
    options.rows = 4
    let session = try startPrompt(["--confirm", "--allow-weak"], options: options)
    try session.typeRevealed("hunter2")
    try session.type(Key.enter)
    try session.waitForText("Again:")
    try session.type("hunter2")
    try session.waitForText("Again: hunter2")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    // Two prompts and the room made under each for its status lines need more
    // than four rows: the first line went into the scrollback.
    let after = try session.screen()
    #expect(!after.scrollback.isEmpty, "\(after)")
    #expect(!after.contains("hunter2"), "\(after)")
  }

  @Test("--no-reveal: Tab never shows the text")
  func noReveal() throws {
    let session = try startPrompt(["--no-reveal"])
    try session.type("hunter2")
    try session.type(Key.tab)
    try session.type("!")
    let screen = try session.waitForMasks(8)
    #expect(!screen.contains("hunter2"))
    #expect(screen.shows("Enter OK · Esc cancel") && !screen.shows("Tab show"))
    try session.submit(expectingOutput: "hunter2!\n")
  }

  @Test("revealed wide characters take their columns; the caret lands after them")
  func wideCharacters() throws {
    let session = try startPrompt()
    try session.type(Key.tab)
    try session.type("日本")
    try session.type("a")
    let screen = try session.waitForText("Password: 日本a")
    #expect(screen.cursorColumn == 15)
    try session.type(Key.left)
    try session.type(Key.left)
    try session.waitForScreen("the caret after 日") { $0.cursorColumn == 12 }
    try session.submit(expectingOutput: "日本a\n")
  }
}
