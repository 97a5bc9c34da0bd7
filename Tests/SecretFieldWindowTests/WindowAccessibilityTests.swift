import Foundation
import Glibc
import Testing

/// What assistive technologies are told, read as a screen reader reads it:
/// through AT-SPI, on a private session bus with its own accessibility bus.
@Suite(
  "secretfield-window: the field is named for assistive technologies, its text never given",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowAccessibilityTests {
  @Test("masked and revealed: a text box named by the prompt; the password in no node")
  func fieldIsNamedNotRead() throws {
    let password = "Kq7wZp3x"
    let display = try VirtualDisplay()
    for keys in [["type:" + password], ["type:" + password, "Tab"]] {
      let nodes = try Self.accessibleNodes(
        display: display, title: "secretfield-askpass", keys: keys,
        program: [WindowTestEnvironment.windowProgram, "askpass", "Passphrase for key:"])
      let field = nodes.filter { $0.contains("role='text' name='Passphrase for key:'") }
      #expect(field.count == 1, "\(nodes)")
      #expect(field.first?.contains("text=''") == true, "no text interface, or an empty one")
      #expect(!nodes.contains { $0.contains(password) }, "\(keys): \(nodes)")
    }
  }

  @Test("control: GTK's GtkPasswordEntry gives its text to the same probe")
  func passwordEntryGivesItsText() throws {
    let password = "Kq7wZp3x"
    let display = try VirtualDisplay()
    let entry = try WindowResidueTests.passwordEntryProgram()
    let nodes = try Self.accessibleNodes(
      display: display, title: "password-entry", keys: ["type:" + password],
      program: [entry.path])
    #expect(nodes.contains { $0.contains("role='password text'") && $0.contains(password) })
  }

  /// Runs `program` on `display` with the accessibility bridge on, in a
  /// session bus of its own with the AT-SPI bus launched, types `keys`
  /// (`type:TEXT` types TEXT, anything else is a key name), and returns the
  /// application's accessible tree, one line a node: role, name, description,
  /// and the text its text interface gives.
  static func accessibleNodes(
    display: VirtualDisplay, title: String, keys: [String], program: [String]
  ) throws -> [String] {
    let directory = NSTemporaryDirectory() + "secretfield-a11y-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let probe = directory + "/probe.py"
    try probeSource.write(toFile: probe, atomically: true, encoding: .utf8)
    let run = try runProgram(
      ["timeout", "120", "dbus-run-session", "--", "/usr/bin/python3", probe, display.name, title]
        + keys + ["--"] + program,
      environment: ["GTK_A11Y": nil, "NO_AT_BRIDGE": nil])
    guard run.status == 0 else {
      throw WindowTestError(description: "the AT-SPI probe failed (\(run.status)): \(run.error)")
    }
    return run.output.split(separator: "\n").filter { $0.hasPrefix("NODE ") }.map(String.init)
  }

  /// The probe: starts the AT-SPI bus, the program, types, waits until the
  /// program's window has a node (up to 30 s) and a second more, walks the
  /// tree with libatspi, and ends the program with Escape.
  static let probeSource = """
    import os, subprocess, sys, time
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    args = sys.argv[1:]
    split = args.index("--")
    display, title, keys, program = args[0], args[1], args[2:split], args[split + 1:]
    env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", GSK_RENDERER="cairo")
    launcher = subprocess.Popen(
        ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=env)
    child = subprocess.Popen(program, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)

    def xdotool(*arguments):
        return subprocess.run(["xdotool", *arguments], env=env, check=True,
                              capture_output=True, timeout=60).stdout

    window = xdotool("search", "--sync", "--name", title).split()[0].decode()
    xdotool("windowfocus", "--sync", window)
    for key in keys:
        if key.startswith("type:"):
            xdotool("type", "--delay", "20", key[5:])
        else:
            xdotool("key", key)
    Atspi.init()

    def nodes(node, depth=0):
        if node is None or depth > 40:
            return []
        text = ""
        interface = node.get_text_iface()
        if interface is not None:
            text = Atspi.Text.get_text(
                interface, 0, Atspi.Text.get_character_count(interface))
        line = "NODE role=%r name=%r description=%r text=%r" % (
            node.get_role_name(), node.get_name() or "", node.get_description() or "", text)
        found = [line]
        for index in range(node.get_child_count()):
            found += nodes(node.get_child_at_index(index), depth + 1)
        return found

    def tree():
        desktop = Atspi.get_desktop(0)
        found = []
        for index in range(desktop.get_child_count()):
            found += nodes(desktop.get_child_at_index(index))
        return found

    try:
        time.sleep(1.5)
        print("\\n".join(tree()), flush=True)
    finally:
        child.kill()
        child.wait()
        launcher.terminate()
    """
}
