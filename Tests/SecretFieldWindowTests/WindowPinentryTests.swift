import TestSupport
import Testing

/// The pinentry in a window, run as gpg-agent runs a pinentry: Assuan on
/// pipes, no controlling terminal, the display named by `OPTION display` (and
/// no `DISPLAY` in its environment, so only the option can have named it).
@Suite(
  "secretfield-window pinentry: GETPIN, CONFIRM and MESSAGE in a window on the client's display",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowPinentryTests {
  static let title = "secretfield pinentry"
  static let cancelled = "ERR 83886179 Operation cancelled <Pinentry>"

  /// Starts the pinentry with `requests` after `OPTION display` for `display`
  /// (and a final `BYE`) waiting on its standard input.
  func startPinentry(
    _ requests: [String], display: TestDisplay, arguments: [String] = []
  ) throws -> TestProcess {
    let script = (["OPTION display=\(display.name)"] + requests + ["BYE"]).joined(separator: "\n")
    return try startWindow(
      ["pinentry"] + arguments, display: display, environment: ["DISPLAY": nil],
      input: script + "\n")
  }

  /// Starts the pinentry as ``startPinentry(_:display:arguments:)`` does and
  /// waits until its window has the focus under `title`; the wait ends with
  /// what the pinentry said if it ends first.
  func openPinentry(
    _ requests: [String], display: TestDisplay, title: String = Self.title
  ) throws -> TestProcess {
    let pinentry = try startPinentry(requests, display: display)
    try display.focusWindow(named: title, openedBy: pinentry)
    return pinentry
  }

  /// The response lines after the greeting and the `OPTION display`'s `OK`.
  /// Waits for `pinentry`'s exit, expects status 0 and returns its
  /// responses (``responses(_:)``).
  func finishAnswering(
    _ pinentry: TestProcess, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String] {
    let run = try pinentry.finish()
    #expect(run.status == 0, "\(run.error)", sourceLocation: sourceLocation)
    return responses(run)
  }

  func responses(_ run: ProgramRun) -> [String] {
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.prefix(2) == ["OK Pleased to meet you", "OK"], "\(run.output)")
    return Array(lines.dropFirst(2))
  }

  @Test("GETPIN: typing then Enter answers D with the passphrase, then OK")
  func getPinTypedThenEnter() throws {
    let display = try TestDisplay()
    let pinentry = try openPinentry(
      [
        "SETDESC Please enter the passphrase%0Afor key 0xDEADBEEF", "SETPROMPT Passphrase:",
        "GETPIN",
      ],
      display: display)
    try display.type("hunter2 é%")
    try display.key("Return")
    #expect(
      try finishAnswering(pinentry) == [
        "OK", "OK", "D hunter2 é%25", "OK", "OK closing connection",
      ])
  }

  @Test("GETPIN: SETTITLE names the window; Esc answers the cancel error")
  func getPinEscapeCancels() throws {
    let display = try TestDisplay()
    let pinentry = try openPinentry(
      ["SETTITLE Unlock the key", "GETPIN"], display: display, title: "Unlock the key")
    try display.type("secret")
    try display.key("Escape")
    #expect(
      try finishAnswering(pinentry) == ["OK", Self.cancelled, "OK closing connection"])
  }

  @Test("the client going away (its end of the answers closed) closes the window; no hang")
  func clientGoneEndsTheDialog() throws {
    let display = try TestDisplay()
    let pinentry = try openPinentry(["GETPIN"], display: display)
    try display.type("half a passw")
    pinentry.closeOutput()
    let run = try pinentry.finish()
    #expect(run.status == 1, "\(run.error)")
    #expect(run.error.contains("writing to the Assuan client failed"), "\(run.error)")
  }

  @Test("GETPIN with SETREPEAT asks twice in the window and answers once")
  func getPinWithRepetition() throws {
    let display = try TestDisplay()
    let pinentry = try startPinentry(
      ["SETREPEAT Repeat:", "GETPIN"], display: display)
    var seen: [String] = []
    for _ in 0..<2 {
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: pinentry))
      try display.type("twice")
      try display.key("Return")
    }
    #expect(
      try finishAnswering(pinentry) == [
        "OK", "S PIN_REPEATED", "D twice", "OK", "OK closing connection",
      ])
  }

  @Test("SETQUALITYBAR: each typed character asks INQUIRE QUALITY; moving the caret does not")
  func qualityBarInquires() throws {
    let display = try TestDisplay()
    // The client's answers wait in the pipe: the session reads them as the
    // inquiries' answers, in order.
    let pinentry = try openPinentry(
      ["SETQUALITYBAR Strength:", "GETPIN", "D 10", "END", "D 40", "END", "D 90", "END"],
      display: display)
    try display.type("a b")
    try display.key("Left", "Home")
    try display.waitForFrame("the caret at the start") { $0.cells == 3 && $0.caret == 0 }
    _ = try display.screenshot(artifact: "pinentry-quality")
    try display.key("Return")
    #expect(
      try finishAnswering(pinentry) == [
        "OK", "INQUIRE QUALITY a", "INQUIRE QUALITY a+", "INQUIRE QUALITY a+b", "D a b", "OK",
        "OK closing connection",
      ])
  }

  @Test("SETQUALITYBAR: the local strength line under the agent's bar, which is still asked")
  func strengthBesideQualityBar() throws {
    let display = try TestDisplay()
    let weak = "password1"
    let strong = weak + " violet anchor 47"
    // One answer a typed character: the agent's bar is asked as before.
    let answers = Array(repeating: ["D 10", "END"], count: strong.count).flatMap { $0 }
    let pinentry = try openPinentry(
      ["SETQUALITYBAR Quality:", "GETPIN"] + answers, display: display)
    try display.type(weak)
    try display.waitForFrame("a common password refused") {
      $0.cells == weak.count && $0.strength == "refused"
    }
    _ = try display.screenshot(artifact: "pinentry-strength")
    try display.type(String(strong.dropFirst(weak.count)))
    try display.waitForFrame("a strong one accepted") {
      $0.cells == strong.count && $0.strength == "accepted"
    }
    try display.key("Return")
    let run = try pinentry.finish()
    #expect(run.status == 0, "\(run.error)")
    let lines = responses(run)
    #expect(lines.filter { $0.hasPrefix("INQUIRE QUALITY ") }.count == strong.count, "\(lines)")
    #expect(lines.suffix(3) == ["D \(strong)", "OK", "OK closing connection"], "\(lines)")
  }

  @Test("control: GETPIN without SETQUALITYBAR judges nothing and shows no strength line")
  func noStrengthWithoutQualityBar() throws {
    let display = try TestDisplay()
    let pinentry = try openPinentry(["GETPIN"], display: display)
    try display.type("password1")
    let frame = try display.waitForFrame("nine cells") { $0.cells == 9 }
    #expect(frame.strength == "none", "\(frame)")
    try display.key("Return")
    let run = try pinentry.finish()
    #expect(run.status == 0, "\(run.error)")
  }

  @Test("SETTIMEOUT: nobody answers, the timeout error comes")
  func getPinTimesOut() throws {
    let display = try TestDisplay()
    let pinentry = try startPinentry(["SETTIMEOUT 1", "GETPIN"], display: display)
    let run = try pinentry.finish()
    #expect(run.status == 0, "\(run.error)")
    let lines = responses(run)
    #expect(lines.count == 3, "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix("ERR 83886142") == true, "\(lines)")
  }

  @Test("SETERROR's text is drawn until the first key: the screen differs from one without it")
  func setErrorIsShown() throws {
    let display = try TestDisplay()
    var shots: [[UInt8]] = []
    var seen: [String] = []
    for (name, error) in [
      ("pinentry-plain", nil), ("pinentry-error", "Bad <b>Passphrase</b> &amp; (try 2 of 3)"),
    ] {
      let pinentry = try startPinentry(
        ["SETDESC Unlock the key", "SETPROMPT Passphrase:"]
          + (error.map { ["SETERROR \($0)"] } ?? [])
          + ["GETPIN"],
        display: display)
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: pinentry))
      try display.waitForFrame("the dialog, focused") {
        $0.processID == Int(pinentry.processID) && $0.isFocused && $0.showsNotice == (error != nil)
      }
      shots.append(try display.screenshot(artifact: name))
      try display.key("Escape")
      let run = try pinentry.finish()
      #expect(run.status == 0, "\(run.error)")
      #expect(responses(run).contains(Self.cancelled), "\(run.output)")
    }
    #expect(shots[0].count > 0)
    let errorShows = !samePixels(shots[0], shots[1])
    #expect(errorShows, "the error text shows")
  }

  @Test("CONFIRM: Enter confirms (OK), Esc cancels")
  func confirm() throws {
    let display = try TestDisplay()
    var seen: [String] = []
    for (key, answer) in [("Return", "OK"), ("Escape", Self.cancelled)] {
      let pinentry = try startPinentry(
        ["SETDESC Allow the use of the key?", "SETNOTOK _Never", "CONFIRM"], display: display)
      seen.append(try display.focusNewWindow(named: Self.title, after: seen, openedBy: pinentry))
      try display.key(key)
      let run = try pinentry.finish()
      #expect(run.status == 0, "\(key): \(run.error)")
      #expect(responses(run) == ["OK", "OK", answer, "OK closing connection"], "\(key)")
    }
  }

  @Test("CONFIRM with SETNOTOK: a click on the third button declines (ERR 83886194)")
  func confirmNotOK() throws {
    let display = try TestDisplay()
    // A long label makes the not-OK button, the leftmost, span the window's
    // first third, whatever the font's widths.
    let pinentry = try startPinentry(
      [
        "SETDESC Allow the use of the key?",
        "SETNOTOK Never ask again for this key, nor for any other one",
        "CONFIRM",
      ],
      display: display)
    let found = try display.x11.xdotool(["search", "--sync", "--name", Self.title])
    let window = try #require(found.output.split(separator: "\n").first.map(String.init))
    var size: [String: Int] = [:]
    for line in try display.x11.xdotool(["getwindowgeometry", "--shell", window]).output
      .split(separator: "\n")
    {
      let parts = line.split(separator: "=")
      if parts.count == 2 { size[String(parts[0])] = Int(parts[1]) }
    }
    let width = try #require(size["WIDTH"])
    let height = try #require(size["HEIGHT"])
    try display.waitForFrame("the confirmation") { $0.kind == "confirmation" }
    _ = try display.screenshot(artifact: "pinentry-confirm-notok")
    try display.x11.xdotool([
      "mousemove", "--window", window, String(width / 3), String(height - 30), "click", "1",
    ])
    #expect(
      try finishAnswering(pinentry) == [
        "OK", "OK", "ERR 83886194 Not confirmed <Pinentry>", "OK closing connection",
      ])
  }

  @Test("MESSAGE: shown with one button; Enter answers OK")
  func message() throws {
    let display = try TestDisplay()
    let pinentry = try openPinentry(
      ["SETDESC The key was imported.", "MESSAGE"], display: display)
    try display.key("Return")
    #expect(
      try finishAnswering(pinentry) == ["OK", "OK", "OK closing connection"])
  }

  @Test("without a display it asks on the terminal, and answers as pinentry-secretfield does")
  func noDisplayUsesTheTerminal() throws {
    let script = "SETDESC Unlock\nGETPIN\nCONFIRM\nBYE\n"
    var runs: [ProgramRun] = []
    for program in [
      WindowTestEnvironment.windowProgram,
      WindowTestEnvironment.productsDirectory
        + "/pinentry-secretfield",
    ] {
      let arguments = program.hasSuffix("/secretfield-window") ? [program, "pinentry"] : [program]
      let pinentry = try TestProcess(
        arguments, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil, "GPG_TTY": nil],
        standardInput: .text(script), newSession: true)
      runs.append(try pinentry.finish())
    }
    #expect(runs[0].status == 0, "\(runs[0].error)")
    #expect(runs[0].output.contains("ERR 83886081"), "\(runs[0].output)")
    #expect(runs[0].output == runs[1].output)
  }
}
