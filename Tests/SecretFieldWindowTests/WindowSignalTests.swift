import Glibc
import TestSupport
import Testing

/// The window program starts as every tool does: a fault signal, or the quit
/// signal, ends it by that signal at once, with nothing on standard error (no
/// runtime backtrace, which prints memory near the registers, and no wait).
@Suite(
  "secretfield-window: a fault or quit signal ends it by that signal, printing nothing",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"))
struct WindowSignalTests {
  static let signals: [Int32] = [SIGQUIT, SIGSEGV, SIGABRT, SIGILL, SIGBUS, SIGFPE, SIGTRAP]

  @Test("each signal, sent while the dialog asks", arguments: signals)
  func endsBySignal(_ signal: Int32) throws {
    let display = try TestDisplay()
    let window = try display.openAskpass(["Password:"])
    try display.type("hunter2")
    try display.waitForFrame("seven masks") { $0.cells == 7 }
    kill(window.processID, signal)
    let run = try window.finish()
    #expect(run.status == 128 + signal, "\(run.error)")
    #expect(run.error == "", "nothing on stderr")
    #expect(run.output == "")
  }

  #if DEBUG
    /// In a debug build `SWIFT_BACKTRACE` keeps the runtime's own handler in
    /// place of the package's: what it prints, and its wait, are what the
    /// test above must not see. Its report goes to a file of the test's, whose
    /// name finds the helper it starts (`swift-backtrace`), which the test ends.
    @Test("control: with the runtime's backtracer kept, a fault prints and does not end it")
    func runtimeBacktracerPrints() throws {
      let report = "/tmp/sf-backtrace-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      defer { unlink(report) }
      let display = try TestDisplay()
      let window = try display.openAskpass(
        ["Password:"],
        environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,output-to=\(report)"])
      kill(window.processID, SIGSEGV)
      #expect(window.waitForError(containing: "swift-runtime"))
      window.signal(SIGKILL)
      try runProgram(["pkill", "-KILL", "-f", report])
      let run = try window.finish()
      #expect(run.status == 128 + SIGKILL, "it did not end by the fault: the test ended it")
    }
  #endif
}
