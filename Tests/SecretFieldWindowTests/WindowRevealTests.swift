import TestSupport
import Testing

/// Reveal, Caps Lock and focus in the window, seen in its frames and its
/// screenshots.
@Suite(
  "secretfield-window: reveal keeps the caret, Caps Lock shows, focus loss re-masks",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowRevealTests {
  static let title = askpassTitle

  @Test(
    "Tab reveals and hides; the caret stays where it was; edits land there",
    arguments: DisplayKind.available)
  func revealKeepsTheCaret(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let window = try display.openAskpass()
    try display.type("hunter2")
    try display.key("Left", "Tab")
    let revealed = try display.waitForFrame("the text revealed") { $0.revealed == 7 }
    #expect(revealed.caret == 6, "\(revealed)")
    try display.type("X")
    try display.key("Tab", "Left")
    let hidden = try display.waitForFrame("masked again, the caret moved") {
      $0.cells == 8 && $0.revealed == 0 && $0.caret == 6
    }
    #expect(hidden.cells == 8)
    try display.type("Y")
    try display.submit(window, expecting: "hunterYX2\n")
  }

  @Test(
    "revealed, two passwords of one length draw different pixels; masked again, the same",
    arguments: DisplayKind.available)
  func revealedScreenshotsDiffer(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    var revealed: [[UInt8]] = []
    var hidden: [[UInt8]] = []
    var seen: [String] = []
    for (name, password) in [("revealed-a", "hunter2"), ("revealed-b", "Zq9#xW!")] {
      let window = try startWindow(["askpass", "Passphrase:"], display: display)
      let pid = Int(window.processID)
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: window))
      try display.type(password)
      try display.key("Tab")
      try display.waitForFrame("revealed") { $0.processID == pid && $0.revealed == 7 }
      revealed.append(try display.screenshot(artifact: name))
      try display.key("Tab")
      try display.waitForFrame("masked again") {
        $0.processID == pid && $0.cells == 7 && $0.revealed == 0
      }
      hidden.append(try display.screenshot(artifact: name + "-hidden"))
      try display.key("Escape")
      _ = try window.finish()
    }
    #expect(!samePixels(revealed[0], revealed[1]), "the characters themselves are drawn")
    #expect(samePixels(hidden[0], hidden[1]), "hidden again: only the length shows")
    #expect(!samePixels(revealed[0], hidden[0]))
  }

  @Test("Caps Lock on shows a hint; off again, the window is as it was")
  func capsLockHint() throws {
    let display = try TestDisplay()
    let window = try display.openAskpass()
    try display.type("abc")
    try display.waitForFrame("three masks") { $0.cells == 3 && !$0.showsCapsLock }
    let before = try display.screenshot(artifact: "caps-lock-off")
    try display.key("Caps_Lock")
    try display.waitForFrame("the hint") { $0.showsCapsLock }
    let on = try display.screenshot(artifact: "caps-lock-on")
    try display.key("Caps_Lock")
    try display.waitForFrame("no hint") { !$0.showsCapsLock }
    let after = try display.screenshot(artifact: "caps-lock-off-again")
    try display.key("Escape")
    _ = try window.finish()
    #expect(!samePixels(before, on), "the hint is drawn")
    #expect(samePixels(before, after), "and goes away")
  }

  @Test(
    "losing focus re-masks a revealed field; focused again it stays masked",
    arguments: DisplayKind.available)
  func focusLossRemasks(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let window = try display.openAskpass()
    try display.type("hunter2")
    try display.waitForFrame("seven masks") { $0.cells == 7 && $0.isFocused }
    let masked = try display.screenshot(artifact: "focus-masked")
    try display.key("Tab")
    try display.waitForFrame("revealed") { $0.revealed == 7 }
    let revealed = try display.screenshot(artifact: "focus-revealed")
    // Another window (the root on X11, an empty workspace on Wayland) takes
    // the focus, then the dialog has it again.
    try display.focusAway()
    try display.waitForFrame("unfocused, masked") { !$0.isFocused && $0.revealed == 0 }
    try display.focusWindow(named: Self.title, openedBy: window)
    try display.waitForFrame("focused again") { $0.isFocused }
    let after = try display.screenshot(artifact: "focus-regained")
    try display.key("Return")
    let run = try window.finish()
    #expect(!samePixels(masked, revealed))
    #expect(samePixels(after, masked), "revealed before, masked after the focus went away")
    #expect(run.output == "hunter2\n")
  }
}
