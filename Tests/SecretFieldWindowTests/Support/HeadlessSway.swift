import Foundation
import Glibc
import TestSupport

/// A headless sway of its own (`WLR_BACKENDS=headless`, `WLR_RENDERER=pixman`:
/// no GPU, no input device), run as the user `nobody` (sway refuses root) in
/// a runtime directory of its own under `/tmp`, with wtype to type, swaymsg
/// to find and focus windows and grim to take screenshots. Nothing of the
/// machine's own session is read or changed; sway and the keyboard are
/// ended and the directory removed when the value is released.
///
/// A headless sway has no keyboard, and its seat gains one only while a
/// virtual keyboard exists: each wtype call would come and go with its own,
/// and the window would lose the keyboard focus (and mask the field) as
/// each call ends. So a wtype that only waits holds a keyboard for the
/// session's life, as a plugged-in one would; each wtype call still uploads
/// its own keymap, and the key right after an upload can be lost, so every
/// call starts with a Shift press and release that may be.
final class HeadlessSway {
  /// The runtime directory (`XDG_RUNTIME_DIR`), owned by `nobody`.
  let runtimeDirectory: String
  /// The socket's name in it (`WAYLAND_DISPLAY`).
  private(set) var socketName = ""
  /// sway's IPC socket (`SWAYSOCK`).
  private(set) var ipcSocket = ""
  private var compositor: TestProcess?
  private var keyboard: TestProcess?

  /// `nobody`'s user and group IDs on Debian.
  static let nobody = "65534"

  /// Starts sway, with `configuration`'s lines after its own, and the
  /// standing keyboard, and waits until sway answers on its IPC socket and
  /// lists the keyboard.
  init(configuration: [String] = []) throws {
    runtimeDirectory = try makeTemporaryDirectory(prefix: "sfw.")
    do {
      try start(configuration: configuration)
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  private func start(configuration extra: [String]) throws {
    let configuration = runtimeDirectory + "/config"
    let lines = [
      "output HEADLESS-1 resolution 1024x768 position 0 0", "default_border none",
      "default_floating_border none", "focus_follows_mouse no",
    ]
    try (lines + extra).map { $0 + "\n" }.joined()
      .write(toFile: configuration, atomically: false, encoding: .utf8)
    guard chown(runtimeDirectory, 65534, 65534) == 0, chown(configuration, 65534, 65534) == 0,
      chmod(runtimeDirectory, 0o700) == 0
    else { throw WindowTestError(description: "cannot give \(runtimeDirectory) to nobody") }
    compositor = try TestProcess(
      [
        "setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--",
        "sway", "--config", configuration,
      ],
      environment: [
        "XDG_RUNTIME_DIR": runtimeDirectory, "HOME": runtimeDirectory,
        "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "SWAYSOCK": nil, "XDG_CONFIG_HOME": nil,
      ], newSession: true)
    let deadline = ContinuousClock.now + .seconds(180)
    while ContinuousClock.now < deadline {
      guard compositor?.isRunning == true else {
        let run = try compositor?.finish(within: .seconds(10))
        throw WindowTestError(description: "sway ended: \(run?.error ?? "")")
      }
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
      if let socket = entries.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
        let ipc = entries.first(where: { $0.hasPrefix("sway-ipc.") })
      {
        socketName = socket
        ipcSocket = runtimeDirectory + "/" + ipc
        if (try? swaymsg(["-t", "get_version"]))?.status == 0 { break }
      }
      usleep(50_000)
    }
    guard !ipcSocket.isEmpty else { throw WindowTestError(description: "sway did not start") }
    keyboard = try TestProcess(
      ["wtype", "-s", "86400000"], environment: .changed(clientEnvironment))
    while ContinuousClock.now < deadline {
      if try swaymsg(["-t", "get_inputs"]).output.contains("\"keyboard\"") { return }
      guard keyboard?.isRunning == true else { break }
      usleep(50_000)
    }
    throw WindowTestError(description: "sway lists no keyboard")
  }

  private func stop() {
    for program in [keyboard, compositor] {
      program?.signal(SIGTERM)
      _ = try? program?.finish(within: .seconds(10))
    }
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// What wtype, grim and swaymsg need to reach this sway.
  var clientEnvironment: [String: String?] {
    [
      "XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName, "SWAYSOCK": ipcSocket,
      "DISPLAY": nil,
    ]
  }

  /// Runs `swaymsg ARGUMENTS` against this sway.
  @discardableResult
  func swaymsg(_ arguments: [String]) throws -> ProgramRun {
    try runProgram(
      ["timeout", "60", "swaymsg"] + arguments, environment: .changed(clientEnvironment))
  }

  /// One window of sway's tree.
  struct Window {
    var id: Int
    var name: String
    var processID: Int
    var focused: Bool
    var visible: Bool
  }

  /// The windows of sway's tree (`swaymsg -t get_tree`), tiled and floating.
  func windows() throws -> [Window] {
    let run = try swaymsg(["-t", "get_tree"])
    guard run.status == 0,
      let tree = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    else { throw WindowTestError(description: "swaymsg -t get_tree: \(run.error)") }
    var found: [Window] = []
    func walk(_ node: [String: Any]) {
      if let processID = node["pid"] as? Int, let id = node["id"] as? Int {
        found.append(
          Window(
            id: id, name: node["name"] as? String ?? "", processID: processID,
            focused: node["focused"] as? Bool ?? false, visible: node["visible"] as? Bool ?? false))
      }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key] as? [[String: Any]] ?? [] { walk(child) }
      }
    }
    walk(tree)
    return found
  }

  /// See ``TestDisplay/focusNewWindow(named:after:openedBy:)``: a window of sway's
  /// tree, focused with `swaymsg [con_id=ID] focus`, once the tree says it
  /// has the focus.
  func focusNewWindow(
    named title: String, after seen: [String], openedBy opener: TestProcess?
  ) throws -> String {
    try WindowTestError.waitForWindow(named: title, openedBy: opener) {
      guard
        let window = try windows().first(where: {
          $0.name == title && !seen.contains("\($0.id):\($0.processID)")
        })
      else { return nil }
      try focus(window.id)
      return "\(window.id):\(window.processID)"
    }
  }

  /// Focuses the window `id` and waits until sway says it has the focus.
  func focus(_ id: Int) throws {
    try swaymsg(["[con_id=\(id)]", "focus"])
    let deadline = ContinuousClock.now + .seconds(180)
    while ContinuousClock.now < deadline {
      if try windows().contains(where: { $0.id == id && $0.focused }) { return }
      usleep(50_000)
    }
    throw WindowTestError(description: "sway did not focus window \(id)")
  }

  /// Shows an empty workspace, so that no window has the focus, and waits
  /// until the tree says none has.
  func showEmptyWorkspace() throws {
    try swaymsg(["workspace", "away"])
    let deadline = ContinuousClock.now + .seconds(180)
    while ContinuousClock.now < deadline {
      if try !windows().contains(where: { $0.focused }) { return }
      usleep(50_000)
    }
    throw WindowTestError(description: "a window kept the focus")
  }

  /// Types `text` with one wtype call, led by a Shift press and release.
  func type(_ text: String) throws {
    try wtype(["--", text])
  }

  /// Presses `keys` (xdotool's names: `Return`, `ctrl+a`) with one wtype
  /// call.
  func key(_ keys: [String]) throws {
    var arguments: [String] = []
    for key in keys {
      var parts = key.split(separator: "+").map(String.init)
      let name = parts.removeLast()
      let modifiers = parts.map { $0 == "ctrl" ? "ctrl" : $0.lowercased() }
      for modifier in modifiers { arguments += ["-M", modifier] }
      arguments += ["-k", name]
      for modifier in modifiers.reversed() { arguments += ["-m", modifier] }
    }
    try wtype(arguments)
  }

  private func wtype(_ arguments: [String]) throws {
    let run = try runProgram(
      ["timeout", "60", "wtype", "-M", "shift", "-m", "shift"] + arguments,
      environment: .changed(clientEnvironment))
    guard run.status == 0 else {
      throw WindowTestError(description: "wtype \(arguments) failed (\(run.status)): \(run.error)")
    }
  }

  /// A screenshot of the whole output as a PNG at `path`.
  func capture(to path: String) throws {
    let run = try runProgram(
      ["timeout", "60", "grim", path], environment: .changed(clientEnvironment))
    guard run.status == 0 else { throw WindowTestError(description: "grim: \(run.error)") }
  }
}
