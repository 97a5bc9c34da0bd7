import Foundation
import Glibc
import TestSupport
import Testing

/// Opening the display: a failure names the display tried, its socket and
/// why; a server that drops the first connections (as an X server does while
/// it resets, once its last client left) is tried again, and the window
/// opens.
@Suite(
  "secretfield-window: the display it cannot open is named; a resetting server is tried again",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowDisplayTests {
  /// An X display number with no server, socket or lock file.
  static func unusedDisplayNumber() -> Int {
    var number = 600 + Int.random(in: 0..<300)
    while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
      || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
    {
      number += 1
    }
    return number
  }

  /// The window program and the askpass that becomes it.
  enum Program: String, CaseIterable, CustomTestStringConvertible {
    case window = "secretfield-window askpass"
    case askpass = "secretfield-askpass, the window forced"

    var testDescription: String { rawValue }
    var path: String {
      self == .window ? WindowTestEnvironment.windowProgram : WindowTestEnvironment.askpassProgram
    }
    var arguments: [String] { self == .window ? ["askpass", "Password:"] : ["Password:"] }
  }

  /// Runs `program` with no terminal and `environment`, the display's
  /// variables unset unless given.
  static func run(_ program: Program, environment: [String: String?]) throws -> ProgramRun {
    let variables: [String: String?] = [
      "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": nil, "SSH_ASKPASS_PROMPT": nil,
      "SECRETFIELD_ASKPASS_FRONTEND": program == .askpass ? "window" : nil,
    ]
    return try TestProcess(
      [program.path] + program.arguments,
      environment: .changed(variables.merging(environment) { $1 }), newSession: true
    ).finish()
  }

  @Test(
    "DISPLAY names an X display no server listens on: the message names it and its socket",
    arguments: Program.allCases)
  func noXServer(_ program: Program) throws {
    let number = Self.unusedDisplayNumber()
    let run = try Self.run(program, environment: ["DISPLAY": ":\(number)"])
    #expect(run.status == 1)
    #expect(run.output == "")
    #expect(
      run.error.contains(
        "cannot open the X display :\(number) (DISPLAY): nothing listens on /tmp/.X11-unix/X\(number)"
      ),
      "\(run.error)")
  }

  @Test("WAYLAND_DISPLAY names no compositor: the message names it and its socket")
  func noCompositor() throws {
    let directory =
      NSTemporaryDirectory() + "sf-runtime-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try Self.run(
      .window, environment: ["WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": directory])
    #expect(run.status == 1)
    #expect(
      run.error.contains(
        "cannot open the Wayland display wayland-9 (WAYLAND_DISPLAY): nothing listens on "
          + "\(directory)/wayland-9"), "\(run.error)")
  }

  @Test("neither DISPLAY nor WAYLAND_DISPLAY: the message says so")
  func noDisplayAtAll() throws {
    let run = try Self.run(.window, environment: [:])
    #expect(run.status == 1)
    #expect(run.error.contains("neither DISPLAY nor WAYLAND_DISPLAY is set"), "\(run.error)")
  }

  /// A stand-in X server socket at `/tmp/.X11-unix/XN` (its lock file taken,
  /// as a server's would be) that accepts and closes connections, as an X
  /// server resetting drops its clients, `drops` of them (all, for -1), then
  /// becomes a link to `target`, a real server's socket.
  final class DroppingServer {
    let number: Int
    private let program: TestProcess
    private let lock: String

    init(drops: Int, target: String) throws {
      var number = WindowDisplayTests.unusedDisplayNumber()
      var lock = "/tmp/.X\(number)-lock"
      while open(lock, O_WRONLY | O_CREAT | O_EXCL, 0o444) < 0 {
        number += 1
        lock = "/tmp/.X\(number)-lock"
      }
      self.number = number
      self.lock = lock
      program = try TestProcess(
        [
          "/usr/bin/python3", "-c", Self.script, "/tmp/.X11-unix/X\(number)", target,
          String(drops),
        ])
      guard program.waitForOutput(containing: "listening") else {
        unlink(lock)
        throw WindowTestError(description: "the dropping server did not start")
      }
    }

    deinit {
      program.signal(SIGKILL)
      _ = try? program.finish(within: .seconds(10))
      unlink("/tmp/.X11-unix/X\(number)")
      unlink(lock)
    }

    /// The connections dropped so far.
    var dropped: Int {
      String(decoding: program.outputSoFar(), as: UTF8.self).split(separator: "\n").filter {
        $0.hasPrefix("dropped")
      }.count
    }

    static let script = """
      import os, socket, sys
      path, target, drops = sys.argv[1], sys.argv[2], int(sys.argv[3])
      server = socket.socket(socket.AF_UNIX)
      server.bind(path)
      server.listen(16)
      print("listening", flush=True)
      count = 0
      while drops < 0 or count < drops:
          connection, _ = server.accept()
          connection.close()
          count += 1
          print("dropped", count, flush=True)
      os.symlink(target, path + ".link")
      os.rename(path + ".link", path)
      server.close()
      print("linked", flush=True)
      while True:
          os.pause()
      """
  }

  @Test("a server that drops the first connections: the window tries again and opens")
  func droppedConnectionsAreRetried() throws {
    let display = try TestDisplay()
    let server = try DroppingServer(drops: 4, target: "/tmp/.X11-unix/X\(try display.x11.number)")
    let window = try display.start(
      ["askpass", "Password:"], environment: ["DISPLAY": ":\(server.number)"])
    try display.focusWindow(named: askpassTitle, openedBy: window)
    try display.waitForFrame("the window") { $0.processID == Int(window.processID) }
    try display.type("hunter2")
    let run = try display.submit(window, expecting: "hunter2\n")
    #expect(!run.error.contains("cannot open"), "\(run.error)")
    #expect(server.dropped == 4)
  }

  @Test("control: a server that drops every connection: tried again, then named with the reason")
  func droppedForeverIsNamed() throws {
    let server = try DroppingServer(drops: -1, target: "/dev/null")
    let run = try Self.run(.window, environment: ["DISPLAY": ":\(server.number)"])
    #expect(run.status == 1)
    #expect(
      run.error.contains(
        "cannot open the X display :\(server.number) (DISPLAY): its server at "
          + "/tmp/.X11-unix/X\(server.number) accepted the connection, but GTK could not open the "
          + "display in 10 tries"), "\(run.error)")
    #expect(server.dropped >= 10, "every try reached the server")
  }

  @Test("the cause: an Xvfb whose last client left resets, and a client connecting then is dropped")
  func xvfbResetDropsClients() throws {
    let server = try XvfbServer(arguments: [])
    let probe = try CompiledProgram(
      name: "connect-loop", source: Self.connectLoop, packages: ["xcb"])
    let run = try runProgram([probe.path, server.name, "20000"])
    #expect(run.status == 0, "\(run.output) \(run.error)")
    #expect(run.output.hasPrefix("dropped after"), "\(run.output)")
  }

  /// `connect-loop DISPLAY N`: connects and disconnects up to N times, one
  /// client at a time, until a connection fails; prints `dropped after K`
  /// or `never dropped`.
  static let connectLoop = """
    #include <errno.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <xcb/xcb.h>
    int main(int argc, char **argv) {
      int tries = atoi(argv[2]);
      for (int i = 1; i <= tries; i++) {
        xcb_connection_t *connection = xcb_connect(argv[1], NULL);
        int failed = xcb_connection_has_error(connection);
        int saved = errno;
        xcb_disconnect(connection);
        if (failed) {
          printf("dropped after %d connections (%s)\\n", i, strerror(saved));
          return 0;
        }
      }
      printf("never dropped\\n");
      return 0;
    }
    """
}
