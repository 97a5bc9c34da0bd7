import Glibc
import TestSupport
import Testing

/// What the window's process holds of a typed password after it was
/// submitted: the process is held at its exit by `marker-counter` (ptrace's
/// `PTRACE_EVENT_EXIT` stop, its memory still whole after its last write) and
/// searched for the password and for every 4-character run of it. The
/// control is GtkPasswordEntry in a program that prints its text on Return, as
/// an askpass written the ordinary GTK way would: the same scan finds the
/// password there.
@Suite(
  "secretfield-window: after submit, nothing of the password is left in the process",
  .enabled(
    if: WindowTestEnvironment.isAvailable,
    "needs the window program and Xvfb, xdotool, xdpyinfo, import and convert"),
  .enabled(if: getuid() == 0, "reading another process's memory needs root"))
struct WindowExitResidueTests {
  /// How the password was shown before it was submitted.
  enum Shown: String, CaseIterable, CustomTestStringConvertible {
    case neverRevealed = "never revealed"
    case revealed = "revealed, then submitted"

    var testDescription: String { rawValue }
  }

  @Test(
    "held: no readable copy (control, sodium memory: the field's one); submitted: nothing",
    arguments: Shown.allCases, WindowResidueTests.FieldMemory.allCases)
  func nothingLeftAfterSubmit(_ shown: Shown, _ memory: WindowResidueTests.FieldMemory) throws {
    let counter = try MarkerCounter()
    let display = try TestDisplay()
    let window = try display.openAskpass(environment: memory.environment)
    let password = try counter.absentPassword(in: window.processID)
    try display.type(password)
    try display.waitForFrame("24 masks") { $0.cells == 24 }
    if shown == .revealed {
      try display.key("Tab")
      try display.waitForFrame("revealed") { $0.revealed == 24 }
    }
    let marker = Array(password.utf8).withUnsafeBytes { Marker(maskingBytesIn: $0) }
    let scanned = try ResidueScanner(processID: window.processID).scan(for: marker)
    let held = try counter.countNow(in: window.processID, passwords: [password])[0]
    let hold = try counter.holdAtExit(window.processID, password: password)
    try display.key("Return")
    let atExit = try hold.counts()
    try window.finish(expectingStatus: 0, output: password + "\n")
    let copies = memory.expectedCopies
    #expect(scanned.copies == copies, "held: \(scanned)")
    #expect(
      held == MarkerCounts(copies: copies, runs: 6 * copies),
      "held: the field's copy at most, no other run: \(held)")
    #expect(atExit == MarkerCounts(copies: 0, runs: 0), "at exit: \(atExit)")
  }

  @Test("control: GtkPasswordEntry that printed its text still holds it at its exit")
  func passwordEntryHoldsItAtExit() throws {
    let counter = try MarkerCounter()
    let program = try WindowResidueTests.passwordEntryProgram()
    let display = try TestDisplay()
    let entry = try openWindow([], program: program.path, display: display, title: "password-entry")
    let password = try counter.absentPassword(in: entry.processID)
    try display.type(password)
    #expect(entry.waitForError(containing: "length 24"), "the entry has the text")
    let hold = try counter.holdAtExit(entry.processID, password: password)
    try display.key("Return")
    let atExit = try hold.counts()
    try entry.finish(expectingStatus: 0, output: password + "\n")
    #expect(atExit.copies >= 1, "at exit: \(atExit)")
    #expect(atExit.runs >= 6, "at exit: \(atExit)")
  }
}
