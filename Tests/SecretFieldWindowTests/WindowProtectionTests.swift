import Foundation
import Glibc
import Testing

/// What the window does against other programs on the display: it holds the
/// keyboard while it is up, says so when it cannot, and keeps the field masked
/// while a screen recorder runs. Keys pass through an input method, so dead
/// keys and compose type what they make.
@Suite(
  "secretfield-window: keyboard grab, screen recorders, dead keys and compose",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowProtectionTests {
  static let title = "secretfield-askpass"

  @Test("dead keys and compose type the characters they make")
  func deadKeysAndCompose() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("ab")
    try display.key("dead_acute", "e", "Multi_key", "o", "e", "dead_diaeresis", "u")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "abéœü\n")
  }

  @Test("while the dialog is up no other client can grab the keyboard; before and after it can")
  func keyboardIsGrabbed() throws {
    let display = try VirtualDisplay()
    let grabber = try Self.grabProgram()
    // The control: the same grab, with no dialog, succeeds (GrabSuccess, 0).
    #expect(try Self.grab(grabber, on: display) == "0")
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("ab")
    #expect(try Self.grab(grabber, on: display) == "1", "AlreadyGrabbed")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.output == "ab\n")
    #expect(try Self.grab(grabber, on: display) == "0", "released when the dialog ends")
  }

  @Test("the focus taken away mid-password: the rest of it still reaches the field")
  func keysFollowTheGrabNotTheFocus() throws {
    let display = try VirtualDisplay()
    let window = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    try display.type("hunt")
    try display.focusRoot()
    try display.type("er2")
    try display.key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "hunter2\n")
  }

  @Test("a keyboard another client holds: the dialog says the grab failed")
  func failedGrabIsSaid() throws {
    let display = try VirtualDisplay()
    let grabber = try Self.grabProgram()
    let plain = try startWindow(["askpass"], display: display)
    try display.focusWindow(named: Self.title)
    let normal = try display.settledScreenshot(artifact: "window-grab-held")
    try display.key("Escape")
    _ = try plain.finish()

    // A client holds the keyboard for 8 seconds, then lets it go.
    let holder = try SpawnedProgram([grabber, "8"], environment: ["DISPLAY": display.name])
    let window = try startWindow(["askpass"], display: display)
    _ = try display.xdotool(["search", "--sync", "--name", Self.title])
    let warned = try display.settledScreenshot(artifact: "window-grab-failed")
    _ = try holder.finish()
    try display.focusWindow(named: Self.title)
    try display.key("Escape")
    let run = try window.finish()
    #expect(run.status == 1)
    #expect(!Self.same(warned, normal), "the warning is drawn")
    #expect(Self.height(of: warned) > Self.height(of: normal), "a line more: the warning")
  }

  @Test("a recorder running: reveal is refused, two passwords of one length draw alike")
  func recorderRefusesReveal() throws {
    let display = try VirtualDisplay()
    let recorder = try Self.startRecorderStandIn(name: Self.refusingRecorder)
    var fields: [[UInt8]] = []
    for (name, password) in [("recorder-a", "hunter2"), ("recorder-b", "Zq9#xW!")] {
      let window = try startWindow(
        ["askpass", "Pass:"], display: display,
        environment: Self.recorderEnvironment(Self.refusingRecorder))
      try display.focusWindow(named: Self.title)
      try display.type(password)
      try display.key("Tab")
      fields.append(Self.field(of: try display.settledScreenshot(artifact: name)))
      try display.key("Escape")
      _ = try window.finish()
    }
    #expect(Self.same(fields[0], fields[1]), "masked: only the length shows")

    // The control: the recorder gone, Tab shows the characters.
    let window = try startWindow(
      ["askpass", "Pass:"], display: display,
      environment: Self.recorderEnvironment(Self.refusingRecorder))
    try display.focusWindow(named: Self.title)
    try display.type("Zq9#xW!")
    let seen = try display.settledScreenshot(artifact: "recorder-still-seen")
    recorder.terminate()
    _ = try recorder.finish()
    let masked = try display.changedScreenshot(from: seen, artifact: "recorder-gone")
    try display.key("Tab")
    let revealed = Self.field(of: try display.settledScreenshot(artifact: "recorder-gone-revealed"))
    try display.key("Escape")
    _ = try window.finish()
    #expect(Self.same(Self.field(of: masked), fields[1]))
    #expect(!Self.same(revealed, fields[1]), "with no recorder the text is shown")
  }

  @Test("a recorder that starts while the field is revealed masks it at once")
  func recorderMasksARevealedField() throws {
    let display = try VirtualDisplay()
    var revealed: [[UInt8]] = []
    var masked: [[UInt8]] = []
    for (name, password) in [("recorder-start-a", "hunter2"), ("recorder-start-b", "Zq9#xW!")] {
      let window = try startWindow(
        ["askpass", "Pass:"], display: display,
        environment: Self.recorderEnvironment(Self.maskingRecorder))
      try display.focusWindow(named: Self.title)
      try display.type(password)
      try display.key("Tab")
      let shown = try display.settledScreenshot(artifact: name + "-revealed")
      let recorder = try Self.startRecorderStandIn(name: Self.maskingRecorder)
      let after = try display.changedScreenshot(from: shown, artifact: name + "-masked")
      revealed.append(Self.field(of: shown))
      masked.append(Self.field(of: after))
      try display.key("Escape")
      _ = try window.finish()
      recorder.terminate()
      _ = try recorder.finish()
    }
    #expect(!Self.same(revealed[0], revealed[1]), "the control: revealed, the characters are drawn")
    #expect(Self.same(masked[0], masked[1]), "masked once the recorder was seen")
    #expect(!Self.same(masked[0], revealed[0]))
  }

  // MARK: Helpers

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

  /// The rows from the top to the last one that is not black (the dialog's
  /// height, Xvfb's root being black).
  static func height(of pixels: [UInt8]) -> Int {
    let row = 1024 * 3
    var last = 0
    for y in 0..<(pixels.count / row)
    where pixels[y * row..<y * row + 30].contains(where: { $0 != 0 }) {
      last = y
    }
    return last + 1
  }

  /// A stand-in for a screen recorder: `sleep` started under a name of its
  /// own, which the windows of this suite are told is a recorder's
  /// (``recorderEnvironment``). A known recorder's name would reach the
  /// windows of the tests that run beside this one.
  static func startRecorderStandIn(name: String) throws -> SpawnedProgram {
    let directory = NSTemporaryDirectory() + "secretfield-recorder-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + name
    if !FileManager.default.fileExists(atPath: path) {
      try FileManager.default.createSymbolicLink(
        atPath: path, withDestinationPath: WindowTestEnvironment.path(of: "sleep") ?? "/bin/sleep")
    }
    return try SpawnedProgram([path, "120"])
  }

  /// Asks for the keyboard as a client of `display` (`XGrabKeyboard`), prints
  /// the status (0 GrabSuccess, 1 AlreadyGrabbed), holds it for the seconds
  /// of its argument if it had it, and ends.
  static func grabProgram() throws -> String {
    let directory = NSTemporaryDirectory() + "secretfield-grab-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let source = directory + "/grab.c"
    let binary = directory + "/grab"
    if FileManager.default.isExecutableFile(atPath: binary) { return binary }
    try """
    #include <X11/Xlib.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <unistd.h>
    int main(int argc, char **argv) {
      Display *display = XOpenDisplay(NULL);
      if (!display) return 2;
      int status = XGrabKeyboard(display, DefaultRootWindow(display), True, GrabModeAsync,
                                 GrabModeAsync, CurrentTime);
      printf("%d\\n", status);
      fflush(stdout);
      if (argc > 1 && status == GrabSuccess) sleep(atoi(argv[1]));
      XCloseDisplay(display);
      return 0;
    }
    """.write(toFile: source, atomically: true, encoding: .utf8)
    let run = try runProgram(["cc", "-O1", "-o", binary, source, "-lX11"])
    guard run.status == 0 else {
      throw WindowTestError(description: "building the grab program: \(run.error)")
    }
    return binary
  }

  static func grab(_ program: String, on display: VirtualDisplay) throws -> String {
    let run = try runProgram([program], environment: ["DISPLAY": display.name])
    return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension VirtualDisplay {
  /// The first settled screenshot that differs from `previous`, within 15 s.
  func changedScreenshot(from previous: [UInt8], artifact: String) throws -> [UInt8] {
    let deadline = ContinuousClock.now + .seconds(15)
    while ContinuousClock.now < deadline {
      let pixels = try settledScreenshot(artifact: artifact)
      if pixels != previous { return pixels }
    }
    throw WindowTestError(description: "the screen did not change")
  }
}
