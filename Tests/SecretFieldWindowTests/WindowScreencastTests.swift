import Foundation
import TestSupport
import Testing

/// The window against a screencast through the desktop portal: a stream
/// node in PipeWire's registry, which no process name shows. Each test runs
/// a PipeWire daemon of its own (``PrivatePipeWire``) and points the window
/// at it with `PIPEWIRE_REMOTE`; the stand-in stream is a node as
/// xdg-desktop-portal-wlr makes one, and an audio stream with the portal's
/// names stays beside it as the control.
/// The window tests' programs and PipeWire's (or
/// `SECRETFIELD_REQUIRE_WINDOW_TESTS=1`, which makes a missing one fail).
let screencastTestsAreAvailable =
  ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1"
  || (WindowTestEnvironment.isAvailable && PrivatePipeWire.isAvailable)

@Suite(
  "secretfield-window: a screencast through the desktop portal",
  .enabled(
    if: screencastTestsAreAvailable,
    "needs the window tests' programs, and pipewire, pipewire-bin and SPA's video test source"))
struct WindowScreencastTests {
  static let title = askpassTitle

  @Test("a portal stream: reveal is refused while it exists, and shows once it is gone")
  func screencastRefusesReveal() throws {
    let pipewire = try PrivatePipeWire()
    let audio = try pipewire.start(.audioStream())
    let cast = try pipewire.start(.portalScreencast())
    let display = try TestDisplay()
    let environment: [String: String?] = ["PIPEWIRE_REMOTE": pipewire.socketPath]
    let (fields, seen) = try WindowProtectionTests.refusedRevealFields(
      on: display, environment: environment, artifacts: ["screencast-a", "screencast-b"])
    #expect(WindowProtectionTests.same(fields[0], fields[1]), "masked: only the length shows")

    // The control: the stream gone, the audio stream still there, Tab shows
    // the characters.
    let window = try startWindow(["askpass", "Pass:"], display: display, environment: environment)
    let pid = Int(window.processID)
    try display.focusNewWindow(named: Self.title, after: seen, openedBy: window)
    try display.type("Zq9#xW!")
    try display.waitForFrame("the stream seen") {
      $0.processID == pid && $0.cells == 7 && $0.showsRecording
    }
    try cast.end()
    try display.waitForFrame("the stream gone") { $0.processID == pid && !$0.showsRecording }
    let masked = try display.screenshot(artifact: "screencast-gone")
    try display.key("Tab")
    try display.waitForFrame("revealed") { $0.processID == pid && $0.revealed == 7 }
    let revealed = WindowProtectionTests.field(
      of: try display.screenshot(artifact: "screencast-gone-revealed"))
    try display.key("Escape")
    _ = try window.finish()
    #expect(WindowProtectionTests.same(WindowProtectionTests.field(of: masked), fields[1]))
    #expect(
      !WindowProtectionTests.same(revealed, fields[1]),
      "with no screencast, and an audio stream beside it, the text is shown")
    try audio.end()
  }

  @Test("a portal stream that starts while the field is revealed masks it at once")
  func screencastMasksARevealedField() throws {
    let pipewire = try PrivatePipeWire()
    let audio = try pipewire.start(.audioStream())
    let display = try TestDisplay()
    let (revealed, masked) = try WindowProtectionTests.fieldsMaskedBySighting(
      on: display, environment: ["PIPEWIRE_REMOTE": pipewire.socketPath],
      artifacts: ["screencast-start-a", "screencast-start-b"]
    ) {
      let cast = try pipewire.start(.portalScreencast())
      return { try cast.end() }
    }
    #expect(
      !WindowProtectionTests.same(revealed[0], revealed[1]),
      "the control: revealed beside an audio stream, the characters are drawn")
    #expect(WindowProtectionTests.same(masked[0], masked[1]), "masked once the stream was seen")
    #expect(!WindowProtectionTests.same(masked[0], revealed[0]))
    try audio.end()
  }
}
