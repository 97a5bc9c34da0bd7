import Testing

/// Reveal, Caps Lock and focus in the window, seen in its screenshots.
@Suite(
  "secretfield-window: reveal keeps the caret, Caps Lock shows, focus loss re-masks",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowRevealTests {
  static let title = "secretfield-askpass"

  @Test("Tab reveals and hides; the caret stays where it was; edits land there")
  func revealKeepsTheCaret() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("hunter2")
    try display.key("Left", "Tab")
    try display.type("X")
    try display.key("Tab", "Left")
    try display.type("Y")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "hunterYX2\n")
  }

  @Test("revealed, two passwords of one length draw different pixels; masked again, the same")
  func revealedScreenshotsDiffer() throws {
    let display = try VirtualDisplay()
    var revealed: [[UInt8]] = []
    var hidden: [[UInt8]] = []
    for (name, password) in [("revealed-a", "hunter2"), ("revealed-b", "Zq9#xW!")] {
      let window = try startWindow(["askpass", "Passphrase:"], display: display)
      try display.focusWindow(named: Self.title)
      try display.type(password)
      try display.key("Tab")
      revealed.append(try display.settledScreenshot(artifact: name))
      try display.key("Tab")
      hidden.append(try display.settledScreenshot(artifact: name + "-hidden"))
      try display.key("Escape")
      _ = try window.finish()
    }
    #expect(revealed[0] != revealed[1], "the characters themselves are drawn")
    #expect(hidden[0] == hidden[1], "hidden again: only the length shows")
    #expect(revealed[0] != hidden[0])
  }

  @Test("Caps Lock on shows a hint; off again, the window is as it was")
  func capsLockHint() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("abc")
    let before = try display.settledScreenshot(artifact: "caps-lock-off")
    try display.key("Caps_Lock")
    let on = try display.settledScreenshot(artifact: "caps-lock-on")
    try display.key("Caps_Lock")
    let after = try display.settledScreenshot(artifact: "caps-lock-off-again")
    try display.key("Escape")
    _ = try window.finish()
    #expect(before != on, "the hint is drawn")
    #expect(before == after, "and goes away")
  }

  @Test("losing focus re-masks a revealed field; focused again it stays masked")
  func focusLossRemasks() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("hunter2")
    let masked = try display.settledScreenshot(artifact: "focus-masked")
    try display.key("Tab")
    let revealed = try display.settledScreenshot(artifact: "focus-revealed")
    // The root window takes the focus, then the dialog has it again.
    try display.focusRoot()
    _ = try display.settledScreenshot(artifact: "focus-lost")
    try display.focusWindow(named: Self.title)
    let after = try display.settledScreenshot(artifact: "focus-regained")
    try display.key("Return")
    let run = try window.finish()
    #expect(masked != revealed)
    #expect(after == masked, "revealed before, masked after the focus went away")
    #expect(run.output == "hunter2\n")
  }
}
