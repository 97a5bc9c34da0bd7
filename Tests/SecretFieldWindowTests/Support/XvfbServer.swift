import Foundation
import Glibc
import TestSupport

/// An Xvfb server of its own on a free display number, ended when the value
/// is released, with xdotool to type and focus and ImageMagick's import to
/// take screenshots.
///
/// It runs with `-noreset`: an X server without it resets itself whenever
/// its last client leaves, and a client that connects during the reset is
/// dropped, which the tests' own xdotool and import would meet (the window
/// itself retries; `WindowDisplayTests` shows both).
final class XvfbServer {
  let number: Int
  private let server: TestProcess
  /// `keymap-tool`, compiled the first time a key outside the map is typed.
  private var keymapTool: CompiledProgram?

  var name: String { ":\(number)" }

  /// Starts Xvfb on the first display number from a random start that has no
  /// lock file and starts, and waits (up to 30 s) until `xdpyinfo` answers
  /// from this server: the lock file names its process, so a display another
  /// test's Xvfb took meanwhile is never taken for this one.
  init(arguments: [String] = ["-noreset"]) throws {
    var candidate = 100 + Int.random(in: 0..<400)
    for _ in 0..<20 {
      candidate += 1
      let lock = "/tmp/.X\(candidate)-lock"
      guard !FileManager.default.fileExists(atPath: lock) else { continue }
      let server = try TestProcess(
        ["Xvfb", ":\(candidate)", "-screen", "0", "1024x768x24", "-nolisten", "tcp"] + arguments)
      let deadline = ContinuousClock.now + .seconds(30)
      while server.isRunning, ContinuousClock.now < deadline {
        let owner = (try? String(contentsOfFile: lock, encoding: .utf8))
          .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if owner == server.processID,
          let run = try? runProgram(["xdpyinfo", "-display", ":\(candidate)"]), run.status == 0
        {
          self.number = candidate
          self.server = server
          return
        }
        usleep(50_000)
      }
      server.signal(SIGTERM)
      _ = try? server.finish(within: .seconds(10))
    }
    throw WindowTestError(description: "no Xvfb display could be started")
  }

  deinit {
    server.signal(SIGTERM)
    _ = try? server.finish(within: .seconds(10))
  }

  /// Runs `xdotool ARGUMENTS` on this display, under `timeout 60` so that a
  /// window that never comes fails the test instead of hanging it.
  @discardableResult
  func xdotool(_ arguments: [String]) throws -> ProgramRun {
    let run = try runProgram(
      ["timeout", "60", "xdotool"] + arguments, environment: ["DISPLAY": name])
    guard run.status == 0 else {
      throw WindowTestError(
        description: "xdotool \(arguments) failed (\(run.status)): \(run.error)")
    }
    return run
  }

  /// See ``TestDisplay/focusNewWindow(named:after:openedBy:)``: xdotool's search and
  /// `windowfocus --sync`, which returns once the server says the window has
  /// the focus.
  func focusNewWindow(
    named title: String, after seen: [String], openedBy opener: TestProcess?
  ) throws -> String {
    try WindowTestError.waitForWindow(named: title, openedBy: opener) {
      let found = try runProgram(
        ["xdotool", "search", "--onlyvisible", "--name", title], environment: ["DISPLAY": name])
      for window in found.output.split(separator: "\n").map(String.init) {
        let owner = try runProgram(
          ["xdotool", "getwindowpid", window], environment: ["DISPLAY": name])
        let named = window + ":" + owner.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard owner.status == 0, !seen.contains(named) else { continue }
        try xdotool(["windowfocus", "--sync", window])
        return named
      }
      return nil
    }
  }

  /// Gives the keyboard focus to the root window, away from every dialog.
  func focusRoot() throws {
    let info = try runProgram(["xwininfo", "-root", "-display", name])
    guard
      let line = info.output.split(separator: "\n").first(where: { $0.contains("Window id:") }),
      let id = line.split(separator: " ").first(where: { $0.hasPrefix("0x") })
    else { throw WindowTestError(description: "no root window id in \(info.output)") }
    try xdotool(["windowfocus", "--sync", String(Int(id.dropFirst(2), radix: 16) ?? 0)])
  }

  /// Types `text` with xdotool. Its characters outside the keyboard map are
  /// put on spare keys first and the map is read back (``mapKeysyms(_:)``):
  /// xdotool would otherwise map each on the fly and take the mapping back
  /// at once, and a window that reads the new map only when the key arrives
  /// may read it already taken back.
  func type(_ text: String) throws {
    let outside = text.unicodeScalars.filter { !$0.isASCII }.map { scalar in
      "0x" + String(scalar.value < 0x100 ? scalar.value : 0x0100_0000 | scalar.value, radix: 16)
    }
    if !outside.isEmpty { try mapKeysyms(outside) }
    try xdotool(["type", "--delay", "20", text])
  }

  /// Presses `keys` (xdotool's names, `ctrl+a`); dead keys and Multi_key,
  /// which the map lacks, are put on keys first.
  func key(_ keys: [String]) throws {
    let outside = keys.flatMap { $0.split(separator: "+").map(String.init) }
      .filter { $0.hasPrefix("dead_") || $0 == "Multi_key" }
    if !outside.isEmpty { try mapKeysyms(outside) }
    try xdotool(["key", "--delay", "20"] + keys)
  }

  /// Puts each of `keysyms` (names, or `0x` and hex) that no key has on a
  /// spare keycode, then reads the map back until every one is on a key:
  /// `keymap-tool`, a C program the tests compile.
  func mapKeysyms(_ keysyms: [String]) throws {
    if keymapTool == nil {
      keymapTool = try CompiledProgram(
        name: "keymap-tool", source: Self.keymapSource, packages: ["x11"])
    }
    let run = try runProgram([keymapTool!.path] + keysyms, environment: ["DISPLAY": name])
    guard run.status == 0 else {
      throw WindowTestError(description: "keymap-tool \(keysyms): \(run.error)")
    }
  }

  /// A screenshot of the whole screen as a PNG at `path`.
  func capture(to path: String) throws {
    let run = try runProgram(["import", "-display", name, "-window", "root", "png:" + path])
    guard run.status == 0 else { throw WindowTestError(description: "import: \(run.error)") }
  }

  /// `keymap-tool KEYSYM...`: maps each keysym (a name, or 0x and hex) no
  /// keycode has to a keycode that has none (`XChangeKeyboardMapping`),
  /// then reads the map back (`XGetKeyboardMapping`, after `XSync`) and
  /// fails unless every keysym is on a key.
  static let keymapSource = #"""
    #include <X11/Xlib.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static KeySym parse(const char *text) {
      return strncmp(text, "0x", 2) == 0 ? strtoul(text, NULL, 16) : XStringToKeysym(text);
    }

    static int has(const KeySym *map, int count, KeySym sym) {
      for (int i = 0; i < count; i++)
        if (map[i] == sym) return 1;
      return 0;
    }

    int main(int argc, char **argv) {
      Display *display = XOpenDisplay(NULL);
      if (!display) { fprintf(stderr, "cannot open the display\n"); return 2; }
      int first, last, per;
      XDisplayKeycodes(display, &first, &last);
      int count = last - first + 1;
      KeySym *map = XGetKeyboardMapping(display, first, count, &per);
      for (int a = 1; a < argc; a++) {
        KeySym sym = parse(argv[a]);
        if (sym == NoSymbol) { fprintf(stderr, "unknown keysym %s\n", argv[a]); return 1; }
        if (has(map, count * per, sym)) continue;
        int code = -1;
        for (int k = count - 1; k >= 0 && code < 0; k--) {
          int empty = 1;
          for (int l = 0; l < per; l++)
            if (map[k * per + l] != NoSymbol) empty = 0;
          if (empty) code = k;
        }
        if (code < 0) { fprintf(stderr, "no spare keycode for %s\n", argv[a]); return 1; }
        KeySym row[2] = {sym, sym};
        XChangeKeyboardMapping(display, first + code, 2, row, 1);
        for (int l = 0; l < per; l++) map[code * per + l] = l < 2 ? sym : NoSymbol;
      }
      XSync(display, False);
      XFree(map);
      map = XGetKeyboardMapping(display, first, count, &per);
      for (int a = 1; a < argc; a++)
        if (!has(map, count * per, parse(argv[a]))) {
          fprintf(stderr, "%s is on no key after mapping\n", argv[a]);
          return 1;
        }
      XFree(map);
      XCloseDisplay(display);
      return 0;
    }
    """#
}
