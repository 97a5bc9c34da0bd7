import Foundation
import Glibc
import TestSupport
import Testing

/// A GnuPG home under `/tmp` with a short path (the agent's socket path must
/// stay under 107 bytes) whose agent runs `secretfield-window pinentry`
/// through a wrapper script, as a user's `pinentry-program` would; the agent
/// is stopped and the home removed at the end.
final class WindowGnuPGHome {
  private let directory: TemporaryDirectory
  var path: String { directory.path }

  /// The wrapper is written with `O_CLOEXEC` (``TemporaryDirectory/write(_:_:mode:)``):
  /// a write descriptor that a program started meanwhile by another test
  /// inherited would keep it busy, and the agent's exec of it would fail
  /// with `ETXTBSY` ("No pinentry").
  init() throws {
    directory = try TemporaryDirectory(prefix: "sfw.")
    let wrapper = try directory.write(
      "pinentry", "#!/bin/sh\nexec '\(WindowTestEnvironment.windowProgram)' pinentry \"$@\"\n",
      mode: 0o700)
    try directory.write("gpg-agent.conf", "pinentry-program \(wrapper)\n", mode: 0o600)
  }

  /// GnuPG's environment on `display`: this home, no terminal (`GPG_TTY`
  /// unset), the display's variables (`DISPLAY`, or `WAYLAND_DISPLAY` and
  /// `XDG_RUNTIME_DIR`), which the agent it starts passes on to the
  /// pinentry.
  func environment(display: TestDisplay) -> [String: String?] {
    display.environment.merging([
      "GNUPGHOME": path, "HOME": path, "LC_ALL": "C.UTF-8", "GPG_TTY": nil,
    ]) { $1 }
  }

  /// Starts the agent on `display` and returns once its socket takes
  /// connections (`gpg-agent --daemon` makes the socket before it forks, and
  /// the agent's streams go to /dev/null, so the run ends with the parent):
  /// a client's own autostart gives the agent a few seconds to come up, and
  /// on a busy machine it gives up first.
  func startAgent(display: TestDisplay) throws {
    let variables = environment(display: display)
    let started = try runProgram(
      ["sh", "-c", "exec gpg-agent --daemon >/dev/null 2>&1"], environment: .changed(variables))
    let reached = try runProgram(
      ["gpg-connect-agent", "--no-autostart", "/bye"], environment: .changed(variables))
    guard started.status == 0, reached.status == 0 else {
      throw WindowTestError(
        description: "gpg-agent --daemon: \(started.status); connect: \(reached.error)")
    }
  }

  /// Stops the agent; the home goes with the directory, after.
  deinit {
    _ = try? runProgram(["gpgconf", "--kill", "gpg-agent"], environment: ["GNUPGHOME": path])
  }
}

@Suite(
  "a real gpg-agent with no terminal asks through secretfield-window pinentry",
  .enabled(
    if: WindowTestEnvironment.isAvailable && WindowTestEnvironment.path(of: "gpg-agent") != nil
      && WindowTestEnvironment.path(of: "gpg-connect-agent") != nil,
    "needs the window test programs and GnuPG's gpg-agent and gpg-connect-agent"))
struct WindowPinentryAgentTests {
  @Test(
    "GET_PASSPHRASE: the window opens on the client's display; what is typed comes back",
    arguments: DisplayKind.available)
  func getPassphraseThroughTheWindow(_ kind: DisplayKind) throws {
    let display = try TestDisplay(kind)
    let home = try WindowGnuPGHome()
    try home.startAgent(display: display)
    let client = try TestProcess(
      ["gpg-connect-agent", "GET_PASSPHRASE --data X X Passphrase: Unlock%20the%20key", "/bye"],
      environment: .changed(home.environment(display: display)), newSession: true)
    try display.focusWindow(named: WindowPinentryTests.title, openedBy: client)
    try display.type("agent pass%phrase")
    try display.submit(client, expecting: "D agent pass%25phrase\nOK\n")
  }

  @Test("GET_PASSPHRASE --qualitybar: the agent answers the window's quality inquiries")
  func qualityBarThroughTheWindow() throws {
    let display = try TestDisplay()
    let home = try WindowGnuPGHome()
    try home.startAgent(display: display)
    let client = try TestProcess(
      [
        "gpg-connect-agent", "GET_PASSPHRASE --data --qualitybar X X Passphrase: New%20key", "/bye",
      ],
      environment: .changed(home.environment(display: display)), newSession: true)
    try display.focusWindow(named: WindowPinentryTests.title, openedBy: client)
    try display.type("Tr0ub4dor&3 horse staple")
    try display.waitForFrame("the passphrase") { $0.cells == 24 }
    _ = try display.screenshot(artifact: "pinentry-agent-quality")
    try display.submit(client, expecting: "D Tr0ub4dor&3 horse staple\nOK\n")
  }
}
