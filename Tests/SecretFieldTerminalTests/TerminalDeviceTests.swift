import SecureMemory
import Glibc
import PTYSupport
import SecretFieldTerminal
import Testing

@Suite("TerminalDevice opens a terminal and changes its modes reversibly")
struct TerminalDeviceTests {
  @Test("a path that does not exist: noTerminal, with the errno and what to do")
  func missingPath() {
    let error = #expect(throws: TerminalError.self) {
      _ = try TerminalDevice(path: "/nonexistent/tty")
    }
    #expect(error?.code == .noTerminal)
    #expect(error?.errno == ENOENT)
    #expect(error?.description.contains("no terminal to prompt on") == true)
    #expect(error?.description.contains("give the secret another way") == true)
    #expect(error?.description.contains("--stdin") == false)
  }

  @Test("a path that is not a terminal: notATerminal")
  func notATerminal() {
    let error = #expect(throws: TerminalError.self) { _ = try TerminalDevice(path: "/dev/null") }
    #expect(error?.code == .notATerminal)
    #expect(error?.description.contains("give the secret another way") == true)
    #expect(error?.description.contains("--stdin") == false)
  }

  @Test("no controlling terminal: /dev/tty cannot be opened, noTerminal")
  func noControllingTerminal() async {
    await #expect(processExitsWith: .success) {
      // A new session has no controlling terminal.
      _ = setsid()
      do throws(TerminalError) {
        _ = try TerminalDevice()
        Issue.record("opened /dev/tty without a controlling terminal")
      } catch {
        #expect(error.code == .noTerminal)
        #expect(error.errno == ENXIO)
      }
    }
  }

  @Test("raw mode changes exactly echo, canonical mode, signals; restore puts them back")
  func rawModeAndRestore() throws {
    let pty = try PseudoTerminalPair()
    let before = try pty.attributes()
    var terminal = try TerminalDevice(path: pty.slavePath)
    try terminal.enterRawMode(features: [])
    let raw = try pty.attributes()
    #expect(raw.isRaw && !raw.mapsCarriageReturn)
    #expect(raw.outputFlags == before.outputFlags, "output processing stays as it was")
    #expect(raw.controlFlags == before.controlFlags)
    let changed = terminal.changedModes
    #expect(changed.isRaw)
    let restored = terminal.restoreModes()
    #expect(restored)
    #expect(try pty.attributes() == before)
    #expect(terminal.changedModes.isEmpty)
  }

  @Test("restore is idempotent: a second call writes nothing and changes nothing")
  func restoreIdempotent() throws {
    let pty = try PseudoTerminalPair()
    let before = try pty.attributes()
    var terminal = try TerminalDevice(path: pty.slavePath)
    try terminal.enterRawMode(features: .prompt)
    try terminal.pushKeyboardFlags(.passwordPrompt)
    _ = pty.readOutput()
    terminal.restoreModes()
    let first = String(decoding: pty.readOutput(), as: UTF8.self)
    #expect(first == "\u{1B}[<u\u{1B}[?1004l\u{1B}[?2004l", "pop first, then the modes in reverse")
    let restoredAgain = terminal.restoreModes()
    #expect(restoredAgain)
    #expect(pty.readOutput().isEmpty)
    #expect(try pty.attributes() == before)
  }

  @Test("entering turns on bracketed paste and focus reporting, and records them")
  func featuresRecorded() throws {
    let pty = try PseudoTerminalPair()
    var terminal = try TerminalDevice(path: pty.slavePath)
    try terminal.enterRawMode(features: .prompt)
    try terminal.pushKeyboardFlags(.passwordPrompt)
    let written = String(decoding: pty.readOutput(), as: UTF8.self)
    #expect(written == "\u{1B}[?2004h\u{1B}[?1004h\u{1B}[>25u")
    var expected = TerminalModes()
    expected.isRaw = true
    expected.bracketedPaste = true
    expected.focusReporting = true
    expected.pushedKeyboardFlags = .passwordPrompt
    let changed = terminal.changedModes
    #expect(changed == expected)
    terminal.restoreModes()
  }

  @Test("entering with TCSAFLUSH discards type-ahead")
  func typeAheadDiscarded() throws {
    let pty = try PseudoTerminalPair()
    var terminal = try TerminalDevice(path: pty.slavePath)
    pty.type(Array("typed early\n".utf8))
    // The line reaches the slave asynchronously; wait until it is readable there,
    // which is also the control: before raw mode, the type-ahead is there.
    var request = pollfd(fd: terminal.descriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&request, 1, 30_000) == 1, "the type-ahead arrived")
    try terminal.enterRawMode(features: [])
    request.revents = 0
    #expect(poll(&request, 1, 0) == 0, "and raw mode discarded it")
    terminal.restoreModes()
  }

  @Test("dropping the device restores the modes")
  func deinitRestores() throws {
    let pty = try PseudoTerminalPair()
    let before = try pty.attributes()
    do {
      var terminal = try TerminalDevice(path: pty.slavePath)
      try terminal.enterRawMode(features: .prompt)
      #expect(try pty.attributes().isRaw)
    }
    #expect(try pty.attributes() == before)
    #expect(String(decoding: pty.readOutput(), as: UTF8.self).hasSuffix("\u{1B}[?2004l"))
  }

  @Test("the size comes from the terminal")
  func size() throws {
    let pty = try PseudoTerminalPair()
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(pty.master, UInt(TIOCSWINSZ), &size)
    let terminal = try TerminalDevice(path: pty.slavePath)
    let reported = terminal.size
    #expect(reported?.columns == 100)
    #expect(reported?.rows == 30)
  }
}
