import Testing

/// The askpass in a window, on an Xvfb display of each test's own, driven by
/// real key events (xdotool, through XTEST), run as ssh runs it from a desktop:
/// no controlling terminal, standard output a pipe.
@Suite(
  "secretfield-window askpass: typed keys reach the field, the answer only on stdout",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowAskpassTests {
  static let title = "secretfield-askpass"

  @Test("typing then Enter writes the typed text and a newline, exit 0")
  func typingThenEnter() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass", "Passphrase for key:"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("hunter2 é")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "hunter2 é\n")
  }

  @Test("editing in the middle: Left Left BackSpace, then typing, lands at the caret")
  func editingInTheMiddle() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("hunter2")
    try display.key("Left", "Left", "BackSpace")
    try display.type("X")
    try display.key("Home", "Delete", "End", "BackSpace")
    try display.type("9")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "untXr9\n")
  }

  @Test("Esc cancels: exit 1, nothing on stdout")
  func escapeCancels() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass", "Password:"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("secret")
    try display.key("Escape")
    let run = try window.finish()
    #expect(run.status == 1)
    #expect(run.output == "")
  }

  @Test("copy, cut and paste keys change nothing; the clipboard is not read")
  func clipboardKeysRefused() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("abc")
    try display.key("ctrl+a", "ctrl+c", "ctrl+x", "ctrl+v", "End")
    try display.type("d")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "abcd\n")
  }

  @Test("every cut key keeps the text: Ctrl+A then Shift+Delete empties nothing")
  func everyCutKeyRefused() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("abc")
    try display.key("ctrl+a", "shift+Delete", "ctrl+Insert", "shift+Insert", "End")
    try display.type("d")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "abcd\n")
  }

  @Test("the timeout ends it with 124 and nothing on stdout")
  func timeout() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass", "--timeout", "1.5", "Password:"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("abc")
    let run = try window.finish()
    #expect(run.status == 124)
    #expect(run.output == "")
  }

  @Test("SSH_ASKPASS_PROMPT=confirm: Enter is yes (0), Esc is no (1), nothing written")
  func confirmation() throws {
    let display = try VirtualDisplay()
    for (key, status) in [("Return", Int32(0)), ("Escape", 1)] {
      let window = try startWindow(
        ["askpass", "Allow use of key?"], display: display,
        environment: ["SSH_ASKPASS_PROMPT": "confirm"])
      try display.focusWindow(named: Self.title)
      try display.key(key)
      let run = try window.finish()
      #expect(run.status == status, "\(key): \(run.error)")
      #expect(run.output == "")
    }
  }

  @Test("masked, two passwords of one length draw the same pixels; another length differs")
  func maskedScreenshotsShowOnlyTheLength() throws {
    let display = try VirtualDisplay()
    var shots: [[UInt8]] = []
    for (name, password) in [
      ("masked-a", "hunter2"), ("masked-b", "Zq9#xW!"), ("masked-c", "hunter22"),
    ] {
      let window = try startWindow(["askpass", "Passphrase:"], display: display)
      try display.focusWindow(named: Self.title)
      try display.type(password)
      shots.append(try display.settledScreenshot(artifact: name))
      try display.key("Escape")
      _ = try window.finish()
    }
    #expect(shots[0].count > 0)
    #expect(shots[0] == shots[1], "same length, different text: pixel-identical")
    #expect(shots[0] != shots[2], "the control: one more character shows")
  }

  @Test("secretfield-askpass with no terminal and a display becomes the window")
  func terminalAskpassOpensTheWindow() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(
      ["Enter passphrase for /tmp/k:"], program: WindowTestEnvironment.askpassProgram,
      display: display)
    try display.focusWindow(named: Self.title)
    try display.type("correct horse")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "correct horse\n")
  }

  @Test("SECRETFIELD_ASKPASS_FRONTEND=terminal keeps the terminal: no terminal, exit 1")
  func terminalForced() throws {
    let display = try VirtualDisplay()
    let askpass = try startWindow(
      ["Password:"], program: WindowTestEnvironment.askpassProgram, display: display,
      environment: ["SECRETFIELD_ASKPASS_FRONTEND": "terminal"])
    let run = try askpass.finish()
    #expect(run.status == 1)
    #expect(run.output == "")
    #expect(run.error.contains("terminal"), "\(run.error)")
  }
}
