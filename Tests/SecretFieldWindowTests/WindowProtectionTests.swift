import Foundation
import Glibc
import TestSupport
import Testing

/// What the window does against other programs on the display: on X11 it
/// holds the keyboard while it is up and says what that cannot stop (any
/// client reads raw key events), and says so when it cannot hold it; on
/// Wayland it asks the compositor to inhibit its shortcuts and says whether
/// it did; it keeps the field masked while a screen recorder runs. Keys pass
/// through an input method, so dead keys and compose type what they make.
@Suite(
  "secretfield-window: keyboard grab, screen recorders, dead keys and compose",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowProtectionTests {
  static let title = askpassTitle

  @Test("dead keys and compose type the characters they make")
  func deadKeysAndCompose() throws {
    try TestDisplay().answerAskpass(
      typing: [
        .text("ab"), .keys(["dead_acute", "e", "Multi_key", "o", "e", "dead_diaeresis", "u"]),
      ], expecting: "abéœü\n")
  }

  @Test("while the dialog is up no other client can grab the keyboard; before and after it can")
  func keyboardIsGrabbed() throws {
    let display = try TestDisplay()
    let grabber = try Self.grabProgram()
    // The control: the same grab, with no dialog, succeeds (GrabSuccess, 0).
    #expect(try Self.grab(grabber, on: display) == "0")
    let window = try display.openAskpass()
    try display.type("ab")
    let frame = try display.waitForFrame("two masks") { $0.cells == 2 }
    #expect(frame.protection == "x11-keyboard-held", "the line says it: \(frame)")
    #expect(try Self.grab(grabber, on: display) == "1", "AlreadyGrabbed")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.output == "ab\n")
    #expect(try Self.grab(grabber, on: display) == "0", "released when the dialog ends")
  }

  @Test("the focus taken away mid-password: the rest of it still reaches the field")
  func keysFollowTheGrabNotTheFocus() throws {
    let display = try TestDisplay()
    let window = try display.openAskpass()
    try display.type("hunt")
    try display.focusAway()
    try display.type("er2")
    try display.submit(window, expecting: "hunter2\n")
  }

  @Test("a keyboard another client holds: the dialog says the grab failed")
  func failedGrabIsSaid() throws {
    let display = try TestDisplay()
    let grabber = try Self.grabProgram()
    let plain = try startWindow(["askpass"], display: display)
    let first = try display.focusNewWindow(named: Self.title, openedBy: plain)
    try display.waitForFrame("the grab held") {
      $0.processID == Int(plain.processID) && $0.protection == "x11-keyboard-held"
    }
    let normal = try display.screenshot(artifact: "window-grab-held")
    try display.key("Escape")
    _ = try plain.finish()

    // A client holds the keyboard until the test lets it go.
    let holder = try TestProcess(
      [grabber.path, "hold"], environment: ["DISPLAY": display.name])
    #expect(holder.waitForOutput(containing: "0"), "the holder has the keyboard")
    let window = try startWindow(["askpass"], display: display)
    let warnedFrame = try display.waitForFrame("the grab failed") {
      $0.processID == Int(window.processID) && $0.protection == "x11-keyboard-not-held"
    }
    let warned = try display.screenshot(artifact: "window-grab-failed")
    holder.signal(SIGTERM)
    _ = try holder.finish()
    try display.focusNewWindow(named: Self.title, after: [first], openedBy: window)
    try display.key("Escape")
    let run = try window.finish()
    #expect(run.status == 1)
    #expect(warnedFrame.protection == "x11-keyboard-not-held")
    #expect(!Self.same(warned, normal), "the warning is drawn")
  }

  @Test("while the dialog holds the keyboard, any X client still reads every key (XI2 raw events)")
  func rawKeyEventsPassTheGrab() throws {
    let display = try TestDisplay()
    let listener = try CompiledProgram(
      name: "raw-keys", source: Self.rawKeySource, packages: ["x11", "xi"])
    let reader = try TestProcess([listener.path], environment: ["DISPLAY": display.name])
    #expect(reader.waitForOutput(containing: "listening"))
    let window = try display.openAskpass()
    try display.waitForFrame("the grab held") { $0.protection == "x11-keyboard-held" }
    try display.type("hunter22")
    // Eight key presses, each seen by the other client despite the grab.
    #expect(reader.waitForOutput(containing: "press 8"), "the raw events were read")
    try display.key("Return")
    let run = try window.finish()
    reader.signal(SIGTERM)
    _ = try reader.finish()
    #expect(run.output == "hunter22\n")
  }

  @Test(
    "Wayland: the compositor is asked to inhibit its shortcuts; the line says whether it did",
    .enabled(if: WindowTestEnvironment.isWaylandAvailable, "needs sway, wtype and grim"),
    arguments: [true, false])
  func shortcutsInhibited(_ allowed: Bool) throws {
    let display = try TestDisplay(
      .wayland,
      swayConfiguration: allowed
        ? []
        : [
          "seat * shortcuts_inhibitor disable"
        ])
    let window = try display.openAskpass()
    let expected = allowed ? "wayland-shortcuts-inhibited" : "wayland-shortcuts-not-inhibited"
    let frame = try display.waitForFrame(expected) { $0.isFocused && $0.protection == expected }
    _ = try display.screenshot(artifact: "window-wayland-\(expected)")
    try display.key("Escape")
    _ = try window.finish()
    #expect(frame.protection == expected)
  }

  @Test("a recorder running: reveal is refused, two passwords of one length draw alike")
  func recorderRefusesReveal() throws {
    let display = try TestDisplay()
    let recorder = try Self.startRecorderStandIn(name: Self.refusingRecorder)
    let (fields, seen) = try Self.refusedRevealFields(
      on: display, environment: Self.recorderEnvironment(Self.refusingRecorder),
      artifacts: ["recorder-a", "recorder-b"])
    #expect(Self.same(fields[0], fields[1]), "masked: only the length shows")

    // The control: the recorder gone, Tab shows the characters.
    let window = try startWindow(
      ["askpass", "Pass:"], display: display,
      environment: Self.recorderEnvironment(Self.refusingRecorder))
    try display.focusNewWindow(named: Self.title, after: seen, openedBy: window)
    try display.type("Zq9#xW!")
    try display.waitForFrame("the recorder seen") { $0.cells == 7 && $0.showsRecording }
    recorder.signal(SIGTERM)
    _ = try recorder.finish()
    try display.waitForFrame("the recorder gone") { !$0.showsRecording }
    let masked = try display.screenshot(artifact: "recorder-gone")
    try display.key("Tab")
    try display.waitForFrame("revealed") { $0.revealed == 7 }
    let revealed = Self.field(of: try display.screenshot(artifact: "recorder-gone-revealed"))
    try display.key("Escape")
    _ = try window.finish()
    #expect(Self.same(Self.field(of: masked), fields[1]))
    #expect(!Self.same(revealed, fields[1]), "with no recorder the text is shown")
  }

  @Test("a recorder that starts while the field is revealed masks it at once")
  func recorderMasksARevealedField() throws {
    let display = try TestDisplay()
    let (revealed, masked) = try Self.fieldsMaskedBySighting(
      on: display, environment: Self.recorderEnvironment(Self.maskingRecorder),
      artifacts: ["recorder-start-a", "recorder-start-b"]
    ) {
      let recorder = try Self.startRecorderStandIn(name: Self.maskingRecorder)
      return {
        recorder.signal(SIGTERM)
        _ = try recorder.finish()
      }
    }
    #expect(!Self.same(revealed[0], revealed[1]), "the control: revealed, the characters are drawn")
    #expect(Self.same(masked[0], masked[1]), "masked once the recorder was seen")
    #expect(!Self.same(masked[0], revealed[0]))
  }

  // MARK: Helpers

  /// Types two passwords of one length, each in a new askpass window started
  /// with `environment`, reveals it (Tab), then calls `startSighting` (a
  /// recorder or a screencast appears) and waits until the field is masked;
  /// `startSighting` returns how to end what it started, called once the
  /// window is gone. The fields' pixels revealed, and masked after.
  static func fieldsMaskedBySighting(
    on display: TestDisplay, environment: [String: String?], artifacts: [String],
    startSighting: () throws -> () throws -> Void
  ) throws -> (revealed: [[UInt8]], masked: [[UInt8]]) {
    var revealed: [[UInt8]] = []
    var masked: [[UInt8]] = []
    var seen: [String] = []
    for (name, password) in zip(artifacts, ["hunter2", "Zq9#xW!"]) {
      let window = try startWindow(
        ["askpass", "Pass:"], display: display, environment: environment)
      let pid = Int(window.processID)
      seen.append(try display.focusNewWindow(named: title, after: seen, openedBy: window))
      try display.type(password)
      try display.key("Tab")
      try display.waitForFrame("revealed") { $0.processID == pid && $0.revealed == 7 }
      let shown = try display.screenshot(artifact: name + "-revealed")
      let endSighting = try startSighting()
      try display.waitForFrame("masked by the sighting") {
        $0.processID == pid && $0.showsRecording && $0.revealed == 0
      }
      let after = try display.screenshot(artifact: name + "-masked")
      revealed.append(field(of: shown))
      masked.append(field(of: after))
      try display.key("Escape")
      _ = try window.finish()
      try endSighting()
    }
    return (revealed, masked)
  }

  /// Types two passwords of one length, each in a new askpass window started
  /// with `environment`, presses Tab, and waits until the reveal is refused
  /// (the field masked, the recording and the notice shown): the two
  /// fields' pixels, and the windows seen.
  static func refusedRevealFields(
    on display: TestDisplay, environment: [String: String?], artifacts: [String]
  ) throws -> (fields: [[UInt8]], seen: [String]) {
    var fields: [[UInt8]] = []
    var seen: [String] = []
    for (name, password) in zip(artifacts, ["hunter2", "Zq9#xW!"]) {
      let window = try startWindow(
        ["askpass", "Pass:"], display: display, environment: environment)
      seen.append(try display.focusNewWindow(named: title, after: seen, openedBy: window))
      try display.type(password)
      try display.key("Tab")
      try display.waitForFrame("reveal refused") {
        $0.processID == Int(window.processID) && $0.cells == 7 && $0.showsRecording
          && $0.showsNotice && $0.revealed == 0
      }
      fields.append(field(of: try display.screenshot(artifact: name)))
      try display.key("Escape")
      _ = try window.finish()
    }
    return (fields, seen)
  }

  /// The stand-ins' names, one per test: each test's windows see only its own.
  static let refusingRecorder = "sf-recorder-r"
  static let maskingRecorder = "sf-recorder-m"

  /// The environment that makes a window take `name` for a recorder's.
  static func recorderEnvironment(_ name: String) -> [String: String?] {
    ["SECRETFIELD_SCREEN_RECORDERS": name]
  }

  /// Whether two screenshots are pixel-identical; a Bool, so that a failed
  /// expectation does not print megabytes of pixels.
  static func same(_ first: [UInt8], _ second: [UInt8]) -> Bool { first == second }

  /// The top 80 rows of a 1024-pixel-wide RGB screenshot: the prompt and the
  /// field of a dialog at the origin, without the lines under it.
  static func field(of pixels: [UInt8]) -> [UInt8] {
    Array(pixels.prefix(80 * 1024 * 3))
  }

  /// A stand-in for a screen recorder: `sleep` started under a name of its
  /// own, which the windows of this suite are told is a recorder's
  /// (``recorderEnvironment``). A known recorder's name would reach the
  /// windows of the tests that run beside this one.
  static func startRecorderStandIn(name: String) throws -> TestProcess {
    let directory = NSTemporaryDirectory() + "secretfield-recorder-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + name
    if !FileManager.default.fileExists(atPath: path) {
      try FileManager.default.createSymbolicLink(
        atPath: path, withDestinationPath: WindowTestEnvironment.path(of: "sleep") ?? "/bin/sleep")
    }
    return try TestProcess([path, "120"])
  }

  /// Asks for the keyboard as a client of the display (`XGrabKeyboard`),
  /// prints the status (0 GrabSuccess, 1 AlreadyGrabbed), and, given
  /// `hold` and the keyboard, holds it until it is ended.
  static func grabProgram() throws -> CompiledProgram {
    try CompiledProgram(name: "grab", source: grabSource, packages: ["x11"])
  }

  static let grabSource = """
    #include <X11/Xlib.h>
    #include <stdio.h>
    #include <string.h>
    #include <unistd.h>
    int main(int argc, char **argv) {
      Display *display = XOpenDisplay(NULL);
      if (!display) return 2;
      int status = XGrabKeyboard(display, DefaultRootWindow(display), True, GrabModeAsync,
                                 GrabModeAsync, CurrentTime);
      printf("%d\\n", status);
      fflush(stdout);
      XSync(display, False);
      if (argc > 1 && strcmp(argv[1], "hold") == 0 && status == GrabSuccess) pause();
      XCloseDisplay(display);
      return 0;
    }
    """

  /// Listens for XInput 2 raw key presses on the root window, as any client
  /// of the display may (`xinput test-xi2 --root` does), prints `listening`,
  /// then `press N` at each.
  static let rawKeySource = """
    #include <X11/Xlib.h>
    #include <X11/extensions/XInput2.h>
    #include <stdio.h>
    int main(void) {
      Display *display = XOpenDisplay(NULL);
      if (!display) return 2;
      int opcode, event, error;
      if (!XQueryExtension(display, "XInputExtension", &opcode, &event, &error)) return 3;
      /* XI 2.1 and later deliver raw events whatever grab is held. */
      int major = 2, minor = 2;
      if (XIQueryVersion(display, &major, &minor) != Success) return 4;
      unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
      XISetMask(bits, XI_RawKeyPress);
      XIEventMask mask = {XIAllMasterDevices, sizeof bits, bits};
      XISelectEvents(display, DefaultRootWindow(display), &mask, 1);
      XSync(display, False);
      printf("listening\\n");
      fflush(stdout);
      int presses = 0;
      for (;;) {
        XEvent any;
        XNextEvent(display, &any);
        if (any.xcookie.type == GenericEvent && any.xcookie.extension == opcode
            && any.xcookie.evtype == XI_RawKeyPress) {
          printf("press %d\\n", ++presses);
          fflush(stdout);
        }
      }
    }
    """

  static func grab(_ program: CompiledProgram, on display: TestDisplay) throws -> String {
    let run = try runProgram([program.path], environment: ["DISPLAY": display.name])
    return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
