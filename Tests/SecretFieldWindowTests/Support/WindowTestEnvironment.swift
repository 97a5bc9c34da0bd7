import Foundation
import Glibc
import TestSupport

/// What the window tests need: the window program built beside the tests, and
/// Xvfb, xdotool, xdpyinfo and ImageMagick's import and convert installed.
/// `SECRETFIELD_REQUIRE_WINDOW_TESTS=1` (Scripts/test sets it) makes them run
/// anyway, so a machine that lacks one fails instead of skipping.
enum WindowTestEnvironment {
  static let programs = ["Xvfb", "xdotool", "xdpyinfo", "import", "convert", "xwininfo", "timeout"]
  /// What the Wayland runs need besides: a headless sway started as
  /// `nobody` (util-linux's setpriv), wtype and grim.
  static let waylandPrograms = ["sway", "swaymsg", "wtype", "grim", "setpriv"]

  /// Whether the tests run on Wayland too: the programs are there, or the
  /// window tests are required.
  static var isWaylandAvailable: Bool {
    if ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1" {
      return true
    }
    return isAvailable && waylandPrograms.allSatisfy { path(of: $0) != nil }
  }

  static var isAvailable: Bool {
    if ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1" {
      return true
    }
    return programs.allSatisfy { path(of: $0) != nil }
      && FileManager.default.isExecutableFile(atPath: windowProgram)
  }

  /// The directory of the test bundle, where SwiftPM puts the executables.
  static var productsDirectory: String { TestSupport.productsDirectory() }

  static var windowProgram: String { productsDirectory + "/secretfield-window" }
  static var askpassProgram: String { productsDirectory + "/secretfield-askpass" }

  /// Where the screenshots go, as artifacts: `.build/window-screenshots/`.
  static var screenshotDirectory: String {
    var directory = productsDirectory
    while !directory.hasSuffix("/.build"), directory != "/" {
      directory = (directory as NSString).deletingLastPathComponent
    }
    let path = (directory == "/" ? NSTemporaryDirectory() : directory) + "/window-screenshots"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func path(of program: String) -> String? { TestProcess.path(of: program) }
}

struct WindowTestError: Error, CustomStringConvertible {
  var description: String

  /// Asks `focusNew` every 50 ms, for 180 s at the most, for the new window
  /// named `title`, focused (its `ID:PID`, or nil while it is not shown);
  /// ends with what `opener` said when it ended first.
  static func waitForWindow(
    named title: String, openedBy opener: TestProcess?, focusNew: () throws -> String?
  ) throws -> String {
    let deadline = ContinuousClock.now + .seconds(180)
    while ContinuousClock.now < deadline {
      try checkRunning(opener, opening: title)
      if let window = try focusNew() { return window }
      usleep(50_000)
    }
    throw WindowTestError(description: "no new window named \(title) within 180 s")
  }

  /// Throws when `opener`, the program a test waits on to open the window
  /// `title`, has ended: the window will not come, and what the program
  /// said is the reason.
  static func checkRunning(_ opener: TestProcess?, opening title: String) throws {
    guard let opener, !opener.isRunning else { return }
    // What it wrote so far: a pipe a child of it holds open has no end to
    // read to.
    let said = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
    throw WindowTestError(
      description: "no window named \(title): \(opener.arguments.first ?? "its program") "
        + "ended (\(opener.termination.map { "\($0)" } ?? "?")) first; "
        + "output: \(said(opener.outputSoFar())) error: \(said(opener.errorSoFar()))")
  }
}
