import Foundation
import Glibc
import TestSupport
import Testing

/// The kinds of display the window tests run on.
enum DisplayKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// An Xvfb server, keys typed with xdotool (XTEST).
  case x11
  /// A headless sway run as `nobody`, keys typed with wtype (a virtual
  /// keyboard), screenshots taken with grim.
  case wayland

  var testDescription: String { self == .x11 ? "X11 (Xvfb)" : "Wayland (headless sway)" }

  /// The kinds this machine can run: Wayland needs sway, swaymsg, wtype,
  /// grim and setpriv (and is required where the window tests are).
  static var available: [DisplayKind] {
    WindowTestEnvironment.isWaylandAvailable ? [.x11, .wayland] : [.x11]
  }
}

/// A display of a test's own, X11 or Wayland, and the one way every window
/// test starts a program on it, types into it, waits for its windows and
/// frames, and takes its screenshots. Everything is ended and removed when
/// the value is released.
///
/// Every wait is for an event: a window in the display's list, a line of
/// the window's frame log (``FrameLogReader``), a program's exit. The frame
/// log, which the window writes after it painted a frame, is what a test
/// waits for before a screenshot or a scan of what was typed.
final class TestDisplay {
  let kind: DisplayKind
  /// A directory of the display's own: the frame log, the helpers' files.
  let directory: String
  /// The frames the windows on this display painted.
  let frames: FrameLogReader
  private let xvfb: XvfbServer?
  private let sway: HeadlessSway?

  /// Starts a display of `kind` and waits until it answers; a sway reads
  /// `swayConfiguration`'s lines after its own.
  init(_ kind: DisplayKind = .x11, swayConfiguration: [String] = []) throws {
    self.kind = kind
    directory = try makeTemporaryDirectory(prefix: "sfd.")
    frames = FrameLogReader(path: directory + "/frames")
    do {
      switch kind {
      case .x11:
        xvfb = try XvfbServer()
        sway = nil
      case .wayland:
        xvfb = nil
        sway = try HeadlessSway(configuration: swayConfiguration)
      }
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The X server, on an X11 display; a test that needs X11 itself asks.
  var x11: XvfbServer {
    get throws {
      guard let xvfb else { throw WindowTestError(description: "not an X11 display") }
      return xvfb
    }
  }

  /// The display's name, as `DISPLAY` or `WAYLAND_DISPLAY` gives it.
  var name: String { xvfb?.name ?? sway?.socketName ?? "" }

  /// What a program needs in its environment to open windows here, with
  /// GTK's cairo renderer, no accessibility bridge, and the frame log.
  var environment: [String: String?] {
    var variables: [String: String?] = [
      "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
      "SECRETFIELD_TEST_FRAME_LOG": frames.path,
    ]
    if let xvfb {
      variables.merge(
        ["DISPLAY": xvfb.name, "GDK_BACKEND": "x11", "WAYLAND_DISPLAY": nil]) { $1 }
    }
    if let sway {
      variables.merge(
        [
          "WAYLAND_DISPLAY": sway.socketName, "XDG_RUNTIME_DIR": sway.runtimeDirectory,
          "GDK_BACKEND": "wayland", "DISPLAY": nil,
        ]) { $1 }
    }
    return variables
  }

  /// Starts `program` with `arguments` on this display, its standard output
  /// a pipe and no controlling terminal (a session of its own), as ssh runs
  /// an askpass from a desktop; `environment` is applied last.
  func start(
    _ arguments: [String], program: String = WindowTestEnvironment.windowProgram,
    environment extra: [String: String?] = [:], input: String? = nil, holdsOutput: Bool = false
  ) throws -> TestProcess {
    var variables = environment
    // No PipeWire unless a test names its own: a screencast on the machine
    // that runs the tests is no business of theirs.
    variables.merge([
      "SSH_ASKPASS_PROMPT": nil, "SECRETFIELD_ASKPASS_FRONTEND": nil,
      "PIPEWIRE_REMOTE": "/nonexistent/secretfield-tests/pipewire-0",
    ]) { $1 }
    variables.merge(extra) { $1 }
    return try TestProcess(
      [program] + arguments, environment: .changed(variables),
      standardInput: input.map { .text($0) } ?? .null, newSession: true,
      holdsOutput: holdsOutput)
  }

  // MARK: Windows

  /// Waits for a shown window named `title` that is none of `seen`, gives it
  /// the keyboard focus, waits until the display says it has it, and
  /// returns it as `ID:PID`: the next dialog of a program that opens one
  /// after another, while the last may still be closing. (A window is named
  /// with its process: the X server gives a new client the id range of one
  /// that left.) When `opener` ends first, the wait ends with what it said.
  @discardableResult
  func focusNewWindow(
    named title: String, after seen: [String] = [], openedBy opener: TestProcess? = nil
  ) throws -> String {
    if let xvfb { return try xvfb.focusNewWindow(named: title, after: seen, openedBy: opener) }
    return try sway!.focusNewWindow(named: title, after: seen, openedBy: opener)
  }

  /// Waits for the window named `title` and gives it the keyboard focus;
  /// when `opener` ends first, the wait ends with what it said.
  @discardableResult
  func focusWindow(named title: String, openedBy opener: TestProcess? = nil) throws -> String {
    try focusNewWindow(named: title, openedBy: opener)
  }

  /// Takes the keyboard focus away from every window: X11's root window
  /// gets it; on Wayland an empty workspace is shown.
  func focusAway() throws {
    if let xvfb { return try xvfb.focusRoot() }
    try sway!.showEmptyWorkspace()
  }

  // MARK: Keys

  /// Types `text`: on X11 with xdotool, after every character outside the
  /// keyboard map was put on a key and the map read back; on Wayland with
  /// one wtype call.
  func type(_ text: String) throws {
    if let xvfb { return try xvfb.type(text) }
    try sway!.type(text)
  }

  /// Presses `keys` in order, as xdotool names them (`Return`, `ctrl+a`).
  func key(_ keys: String...) throws {
    try key(keys)
  }

  /// Presses `keys` in order, as ``key(_:)-(String...)`` does.
  func key(_ keys: [String]) throws {
    if let xvfb { return try xvfb.key(keys) }
    try sway!.key(keys)
  }

  // MARK: What is shown

  /// Waits for the next frame of the window's log that `condition` holds
  /// for (``FrameLogReader/next(_:where:)``).
  @discardableResult
  func waitForFrame(_ what: String, where condition: (Frame) -> Bool) throws -> Frame {
    try frames.next(what, where: condition)
  }

  /// The screen's pixels as raw RGB, and a PNG of them at `artifact` under
  /// ``WindowTestEnvironment/screenshotDirectory``. Take it once the frame
  /// log says the window painted what the test waits for.
  func screenshot(artifact: String) throws -> [UInt8] {
    let path = WindowTestEnvironment.screenshotDirectory + "/" + artifact + "-\(kind).png"
    if let xvfb {
      try xvfb.capture(to: path)
    } else {
      try sway!.capture(to: path)
    }
    return try Self.pixels(of: path)
  }

  /// The RGB bytes of the PNG at `path`.
  static func pixels(of path: String) throws -> [UInt8] {
    let raw = path + ".rgb"
    defer { unlink(raw) }
    let run = try runProgram(["convert", path, "-depth", "8", "rgb:" + raw])
    guard run.status == 0 else { throw WindowTestError(description: "convert: \(run.error)") }
    return Array(FileManager.default.contents(atPath: raw) ?? Data())
  }
}

/// Starts `arguments` on `display` (``TestDisplay/start(_:program:environment:input:holdsOutput:)``).
func startWindow(
  _ arguments: [String], program: String = WindowTestEnvironment.windowProgram,
  display: TestDisplay, environment: [String: String?] = [:], input: String? = nil,
  holdsOutput: Bool = false
) throws -> TestProcess {
  try display.start(
    arguments, program: program, environment: environment, input: input,
    holdsOutput: holdsOutput)
}

/// Starts the window as ``startWindow(_:program:display:environment:input:holdsOutput:)``
/// does, and waits until it has the focus under `title`.
func openWindow(
  _ arguments: [String], program: String = WindowTestEnvironment.windowProgram,
  display: TestDisplay, environment: [String: String?] = [:], input: String? = nil,
  holdsOutput: Bool = false, title: String
) throws -> TestProcess {
  let window = try startWindow(
    arguments, program: program, display: display, environment: environment, input: input,
    holdsOutput: holdsOutput)
  try display.focusWindow(named: title, openedBy: window)
  return window
}

extension TestDisplay {
  /// Presses Enter in `window` and expects it to write `output` and exit 0.
  @discardableResult
  func submit(
    _ window: TestProcess, expecting output: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProgramRun {
    try key("Return")
    let run = try window.finish()
    #expect(run.status == 0, "\(run.error)", sourceLocation: sourceLocation)
    #expect(run.output == output, sourceLocation: sourceLocation)
    return run
  }
}

/// Whether two screenshots are pixel-identical; a Bool, so that a failed
/// expectation does not print megabytes of pixels.
func samePixels(_ first: [UInt8], _ second: [UInt8]) -> Bool { first == second }
