import Glibc
import TestSupport
import Testing

/// The askpass in a window, on a display of each test's own (Xvfb, and a
/// headless sway where it is installed), driven by real key events (xdotool
/// through XTEST; wtype through a virtual keyboard), run as ssh runs it from
/// a desktop: no controlling terminal, standard output a pipe.
@Suite(
  "secretfield-window askpass: typed keys reach the field, the answer only on stdout",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowAskpassTests {
  static let title = askpassTitle

  /// Runs `secretfield-askpass Password:` on `display` with no terminal and
  /// `SECRETFIELD_ASKPASS_FRONTEND=frontEnd`, and expects exit 1 with nothing
  /// written and a message saying each of `reasons`.
  static func refusedFrontEnd(
    _ frontEnd: String, on display: TestDisplay, saying reasons: String...,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let askpass = try startWindow(
      ["Password:"], program: WindowTestEnvironment.askpassProgram, display: display,
      environment: ["SECRETFIELD_ASKPASS_FRONTEND": frontEnd])
    try askpass.finish(expectingStatus: 1, sayingAll: reasons, sourceLocation: sourceLocation)
  }

  @Test(
    "typing then Enter writes the typed text and a newline, exit 0",
    arguments: DisplayKind.available)
  func typingThenEnter(_ kind: DisplayKind) throws {
    try TestDisplay(kind).answerAskpass(
      ["Passphrase for key:"], typing: [.text("hunter2 é")], expecting: "hunter2 é\n")
  }

  @Test(
    "editing in the middle: Left Left BackSpace, then typing, lands at the caret",
    arguments: DisplayKind.available)
  func editingInTheMiddle(_ kind: DisplayKind) throws {
    try TestDisplay(kind).answerAskpass(
      typing: [
        .text("hunter2"), .keys(["Left", "Left", "BackSpace"]), .text("X"),
        .keys(["Home", "Delete", "End", "BackSpace"]), .text("9"),
      ], expecting: "untXr9\n")
  }

  @Test(
    "Esc cancels: exit 1, nothing on stdout, the reason on stderr", arguments: DisplayKind.available
  )
  func escapeCancels(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let window = try display.openAskpass(["Password:"])
    try display.type("secret")
    try display.key("Escape")
    try window.finish(expectingStatus: 1, saying: "cancelled (Esc)")
  }

  @Test(
    "copy, cut and paste keys change nothing; the clipboard is not read",
    arguments: DisplayKind.available)
  func clipboardKeysRefused(_ kind: DisplayKind) throws {
    try TestDisplay(kind).answerAskpass(
      typing: [.text("abc"), .keys(["ctrl+a", "ctrl+c", "ctrl+x", "ctrl+v", "End"]), .text("d")],
      expecting: "abcd\n")
  }

  @Test("every cut key keeps the text: Ctrl+A then Shift+Delete empties nothing")
  func everyCutKeyRefused() throws {
    try TestDisplay().answerAskpass(
      typing: [
        .text("abc"), .keys(["ctrl+a", "shift+Delete", "ctrl+Insert", "shift+Insert", "End"]),
        .text("d"),
      ], expecting: "abcd\n")
  }

  @Test(
    "the timeout ends it with 124, nothing on stdout, the reason on stderr",
    arguments: DisplayKind.available)
  func timeout(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    // Nothing is waited for but the exit: a dialog that times out may be
    // gone before a busy machine lets a test find it.
    let window = try startWindow(["askpass", "--timeout", "1.5", "Password:"], display: display)
    try window.finish(expectingStatus: 124, saying: "timed out")
  }

  @Test(
    "a timeout that is no number of seconds up to a year is a usage error (2), not a crash",
    arguments: ["inf", "nan", "1e300", "0", "-1", "soon"])
  func invalidTimeout(_ value: String) throws {
    // Refused before the window opens: only the exit is waited for.
    let display = try TestDisplay()
    let window = try startWindow(["askpass", "--timeout", value, "Password:"], display: display)
    try window.finish(expectingStatus: 2, saying: "--timeout needs a number of seconds above 0")
  }

  @Test(
    "SSH_ASKPASS_PROMPT=confirm: Enter is yes (0), Esc is no (1), nothing written",
    arguments: DisplayKind.available)
  func confirmation(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    var seen: [String] = []
    for (key, status) in [("Return", Int32(0)), ("Escape", 1)] {
      let window = try startWindow(
        ["askpass", "Allow use of key?"], display: display,
        environment: ["SSH_ASKPASS_PROMPT": "confirm"])
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: window))
      try display.key(key)
      let run = try window.finish()
      #expect(run.status == status, "\(key): \(run.error)")
      #expect(run.output == "")
    }
  }

  @Test(
    "masked, two passwords of one length draw the same pixels; another length differs",
    arguments: DisplayKind.available)
  func maskedScreenshotsShowOnlyTheLength(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    var shots: [[UInt8]] = []
    var seen: [String] = []
    for (name, password) in [
      ("masked-a", "hunter2"), ("masked-b", "Zq9#xW!"), ("masked-c", "hunter22"),
    ] {
      let window = try startWindow(["askpass", "Passphrase:"], display: display)
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: window))
      try display.type(password)
      try display.waitForFrame("\(password.count) masks") {
        $0.processID == Int(window.processID) && $0.cells == password.count && $0.isFocused
      }
      shots.append(try display.screenshot(artifact: name))
      try display.key("Escape")
      _ = try window.finish()
    }
    #expect(shots[0].count > 0)
    #expect(samePixels(shots[0], shots[1]), "same length, different text: pixel-identical")
    #expect(!samePixels(shots[0], shots[2]), "the control: one more character shows")
  }

  @Test(
    "secretfield-askpass with no terminal and a display becomes the window",
    arguments: DisplayKind.available)
  func terminalAskpassOpensTheWindow(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let window = try display.openTerminalAskpass("Enter passphrase for /tmp/k:")
    try display.type("correct horse")
    try display.submit(window, expecting: "correct horse\n")
  }

  @Test(
    "SSH_ASKPASS_PROMPT=none with no terminal: secretfield-askpass shows the notice in the window",
    arguments: DisplayKind.available)
  func noticeInTheWindow(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let askpass = try display.openTerminalAskpass(
      "Confirm user presence for key ED25519-SK", environment: ["SSH_ASKPASS_PROMPT": "none"])
    try display.waitForFrame("the notice") {
      $0.processID == Int(askpass.processID) && $0.kind == "message"
    }
    // ssh ends the notice with SIGTERM once the key was touched.
    askpass.signal(SIGTERM)
    try askpass.finish(expectingStatus: 128 + SIGTERM, output: "")
  }

  @Test("SECRETFIELD_ASKPASS_FRONTEND=terminal keeps the terminal: no terminal, exit 1")
  func terminalForced() throws {
    try Self.refusedFrontEnd("terminal", on: TestDisplay(), saying: "terminal")
  }

  @Test("an unknown SECRETFIELD_ASKPASS_FRONTEND is refused with a message naming it; no window")
  func unknownFrontEndRefused() throws {
    let display = try TestDisplay()
    try Self.refusedFrontEnd(
      "windw", on: display, saying: "SECRETFIELD_ASKPASS_FRONTEND=windw", "terminal or window")
    #expect(display.frames.all().isEmpty, "no window was opened")
  }
}
