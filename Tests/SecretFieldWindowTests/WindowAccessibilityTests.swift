import Foundation
import Glibc
import TestSupport
import Testing

/// What assistive technologies are told, read as a screen reader reads it:
/// through AT-SPI, on a private session bus with its own accessibility bus,
/// beside GTK's own `GtkPasswordEntry` read by the same probe.
@Suite(
  "secretfield-window: the field is announced as a password text, its text never given",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowAccessibilityTests {
  static let password = "Kq7wZp3x"

  @Test(
    "masked and revealed: a password text named by the prompt, focused, with no text",
    arguments: [false, true])
  func fieldIsNamedNotRead(_ revealed: Bool) throws {
    let display = try TestDisplay()
    let nodes = try Self.accessibleNodes(
      display: display, title: askpassTitle,
      keys: ["type:" + Self.password] + (revealed ? ["Tab"] : []),
      waitForFrame: "cells=\(Self.password.count) revealed=\(revealed ? Self.password.count : 0)",
      program: [WindowTestEnvironment.windowProgram, "askpass", "Passphrase for key:"])
    let field = nodes.filter { $0.contains("role='password text'") }
    #expect(field.count == 1, "\(nodes)")
    #expect(field.first?.contains("name='Passphrase for key:'") == true, "\(field)")
    #expect(field.first?.contains("text='' count=0") == true, "no text, not even its length")
    #expect(field.first?.contains("focused") == true, "the focus is announced there")
    #expect(!nodes.contains { $0.contains(Self.password) }, "\(nodes)")
    #expect(!nodes.contains { $0.contains("role='text'") }, "no plain text box: \(nodes)")
    print("window-a11y: ours \(revealed ? "revealed" : "masked"): \(field.first ?? "none")")
  }

  @Test("control: GTK's GtkPasswordEntry, the same role, gives its text to the same probe")
  func passwordEntryGivesItsText() throws {
    let display = try TestDisplay()
    let entry = try WindowResidueTests.passwordEntryProgram()
    let nodes = try Self.accessibleNodes(
      display: display, title: "password-entry", keys: ["type:" + Self.password],
      waitForText: Self.password, program: [entry.path])
    let field = nodes.filter { $0.contains("role='password text'") }
    #expect(field.count == 1, "\(nodes)")
    #expect(field.first?.contains(Self.password) == true, "\(field)")
    print(
      "window-a11y: GtkPasswordEntry: "
        + (field.first?.replacingOccurrences(of: Self.password, with: "<the password>") ?? "none"))
  }

  /// Runs `program` on `display` with the accessibility bridge on, in a
  /// session bus of its own with the AT-SPI bus launched, types `keys`
  /// (`type:TEXT` types TEXT, anything else is a key name), waits for the
  /// window's frame log to show `waitForFrame` (`key=value` pairs) or for
  /// its password text node to give `waitForText`, and for the node in the
  /// tree, and returns the application's accessible tree, one line a node:
  /// role, name, description, the text its text interface gives and its
  /// count, and its states.
  static func accessibleNodes(
    display: TestDisplay, title: String, keys: [String], waitForFrame: String? = nil,
    waitForText: String? = nil, program: [String]
  ) throws -> [String] {
    let probe = display.directory + "/probe.py"
    try probeSource.write(toFile: probe, atomically: true, encoding: .utf8)
    var options = ["--frames", display.frames.path]
    if let waitForFrame { options += ["--frame", waitForFrame] }
    if let waitForText { options += ["--text", waitForText] }
    let run = try runProgram(
      ["timeout", "180", "dbus-run-session", "--", "/usr/bin/python3", probe, display.name, title]
        + options + keys + ["--"] + program,
      environment: .changed(
        display.environment.merging(["GTK_A11Y": nil, "NO_AT_BRIDGE": nil]) { $1 }))
    guard run.status == 0 else {
      throw WindowTestError(description: "the AT-SPI probe failed (\(run.status)): \(run.error)")
    }
    return run.output.split(separator: "\n").filter { $0.hasPrefix("NODE ") }.map(String.init)
  }

  /// The probe: starts the AT-SPI bus and the program, waits for its window
  /// (xdotool's `search --sync`), types, waits for the events the test names
  /// (a frame log line, a text), then until the tree holds a password text
  /// node of the window, walks the tree with libatspi, and ends the program.
  /// Every wait is for an event, with a guard of 60 s.
  static let probeSource = #"""
    import os, subprocess, sys, time
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    args = sys.argv[1:]
    split = args.index("--")
    display, title, rest, program = args[0], args[1], args[2:split], args[split + 1:]
    frames, frame, text, keys = None, None, None, []
    while rest:
        option = rest.pop(0)
        if option == "--frames":
            frames = rest.pop(0)
        elif option == "--frame":
            frame = dict(pair.split("=") for pair in rest.pop(0).split())
        elif option == "--text":
            text = rest.pop(0)
        else:
            keys.append(option)
    env = dict(os.environ)
    launcher = subprocess.Popen(
        ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=env)
    child = subprocess.Popen(program, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)

    def xdotool(*arguments):
        return subprocess.run(["xdotool", *arguments], env=env, check=True,
                              capture_output=True, timeout=60).stdout

    def until(what, condition):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = condition()
            if found:
                return found
            time.sleep(0.05)
        raise SystemExit("no " + what + " within 60 s")

    def frame_shown():
        try:
            lines = open(frames).read().splitlines()
        except FileNotFoundError:
            return False
        for line in lines:
            fields = dict(p.split("=") for p in line.split() if "=" in p)
            if all(fields.get(k) == v for k, v in frame.items()):
                return True
        return False

    def nodes(node, depth=0):
        if node is None or depth > 40:
            return []
        content = ""
        interface = node.get_text_iface()
        if interface is not None:
            count = Atspi.Text.get_character_count(interface)
            content = Atspi.Text.get_text(interface, 0, count)
            content = "%r count=%d" % (content, count)
        else:
            content = "none"
        states = [s.value_nick for s in node.get_state_set().get_states()]
        line = "NODE role=%r name=%r description=%r text=%s states=%s" % (
            node.get_role_name(), node.get_name() or "", node.get_description() or "", content,
            ",".join(states))
        found = [(node, line)]
        for index in range(node.get_child_count()):
            found += nodes(node.get_child_at_index(index), depth + 1)
        return found

    def window_nodes():
        desktop = Atspi.get_desktop(0)
        for index in range(desktop.get_child_count()):
            found = nodes(desktop.get_child_at_index(index))
            if any(line.startswith("NODE role='frame' name=%r" % title) for _, line in found):
                return found
        return []

    try:
        window = xdotool("search", "--sync", "--name", title).split()[0].decode()
        xdotool("windowfocus", "--sync", window)
        for key in keys:
            if key.startswith("type:"):
                xdotool("type", "--delay", "20", key[5:])
            else:
                xdotool("key", key)
        if frame is not None:
            until("frame " + repr(frame), frame_shown)
        Atspi.init()

        def field():
            for node, line in window_nodes():
                if node.get_role_name() == "password text":
                    if text is None:
                        return True
                    interface = node.get_text_iface()
                    count = Atspi.Text.get_character_count(interface)
                    if Atspi.Text.get_text(interface, 0, count) == text:
                        return True
            return False

        until("password text node", field)
        print("\n".join(line for _, line in window_nodes()), flush=True)
    finally:
        child.kill()
        child.wait()
        launcher.terminate()
    """#
}
