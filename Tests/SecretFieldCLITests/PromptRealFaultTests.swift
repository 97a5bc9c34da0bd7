import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// The fault injection of `TestHook.armFaultIfAsked()` exists in debug builds
/// only: the shipped tools cannot be made to fault.
#if DEBUG
  private let faultsCanBeInjected = true
#else
  private let faultsCanBeInjected = false
#endif

extension TestHook.Fault: CustomTestStringConvertible {
  /// The fault by its variable value.
  public var testDescription: String { rawValue }
}

/// A prompt whose debug build commits `fault` when sent `SIGURG`, run in a
/// private working directory with core dumps allowed by the limit (`ulimit -c
/// unlimited`; the machine's `core_pattern` is a relative `core`), waited
/// for until two masks show.
private func startFaultingPrompt(
  _ fault: TestHook.Fault, in directory: TemporaryDirectory,
  environment: [String: String] = [:]
) throws -> TerminalSession {
  var options = coreDumpOptions(in: directory)
  options.environment = environment.merging([TestHook.faultVariable: fault.rawValue]) { $1 }
  let session = try startPrompt(options: options)
  try session.typeMasked("ab")
  // The control of the modes check: raw mode and the reports are on now.
  try session.expectPromptModes()
  return session
}

/// Options for a program that may dump core, in `directory`, where the
/// tests look for the core.
private func coreDumpOptions(in directory: TemporaryDirectory) -> TerminalSession.Options {
  var options = TerminalSession.Options()
  options.workingDirectory = directory.path
  options.allowsCoreDumps = true
  return options
}

/// Types more after the two masks of ``startFaultingPrompt(_:in:environment:)``
/// and reveals the line with Tab; returns the screen once it shows the text.
private func revealTypedText(in session: TerminalSession) throws -> ScreenSnapshot {
  try session.type("Qz7")
  try session.waitForMasks(5)
  try session.type(Key.tab)
  return try session.waitForText("Password: abQz7")
}

/// The names in `directory`, `.` and `..` left out.
private func entries(of directory: TemporaryDirectory) -> [String] {
  directoryEntries(directory.path)
}

@Suite(
  "A real fault while the prompt is up restores the terminal, dies by its signal, prints nothing and dumps no core",
  .enabled(if: faultsCanBeInjected))
struct PromptRealFaultTests {
  @Test(
    "terminal restored, death by the fault's signal, stderr empty, no core file",
    arguments: TestHook.Fault.allCases.filter { $0 != .stackOverflowWithoutAlternateStack })
  func restoredBeforeDeath(_ fault: TestHook.Fault) throws {
    let directory = try TemporaryDirectory()
    let session = try startFaultingPrompt(fault, in: directory)
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit() == .signaled(fault.signal))
    try session.expectTerminalRestored()
    #expect(try session.standardError() == "", "nothing on stderr: no backtrace, no memory")
    #expect(try session.standardOutput() == "")
    #expect(!session.dumpedCore)
    #expect(entries(of: directory) == [])
  }

  @Test(
    "a fault while the password is shown masks the line before the terminal is restored",
    arguments: [TestHook.Fault.nullDereference, .abort, .overflowTrap])
  func revealedLineMasked(_ fault: TestHook.Fault) throws {
    let directory = try TemporaryDirectory()
    let session = try startFaultingPrompt(fault, in: directory)
    let screen = try revealTypedText(in: session)
    #expect(screen.contains("Password: abQz7"), "the control: the password is shown")
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit() == .signaled(fault.signal))
    let after = try session.screen()
    #expect(!after.contains("abQz7"), "\(after)")
    #expect(after.lines.contains("Password: •••••"), "\(after)")
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!after.bracketedPaste && !after.focusReporting, "\(after)")
  }

  @Test("control: a fault whose handler cannot run leaves the shown password on the screen")
  func revealedLineLeftWithoutHandler() throws {
    let directory = try TemporaryDirectory()
    let session = try startFaultingPrompt(.stackOverflowWithoutAlternateStack, in: directory)
    _ = try revealTypedText(in: session)
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit() == .signaled(SIGSEGV))
    #expect(try session.screen().contains("Password: abQz7"))
  }

  @Test("control: without the alternate stack a stack overflow leaves the terminal raw")
  func stackOverflowWithoutAlternateStack() throws {
    let directory = try TemporaryDirectory()
    let session = try startFaultingPrompt(.stackOverflowWithoutAlternateStack, in: directory)
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit() == .signaled(SIGSEGV))
    let after = try session.attributes()
    #expect(after.isRaw, "\(after)")
    #expect(try session.screen().bracketedPaste)
  }

  @Test("control: the Swift runtime's backtracer, kept with SWIFT_BACKTRACE, prints to stderr")
  func runtimeBacktracerPrints() throws {
    let directory = try TemporaryDirectory()
    let session = try startFaultingPrompt(
      .nullDereference, in: directory,
      environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no,symbolicate=off"])
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit(timeout: .seconds(120)) == .signaled(SIGSEGV))
    let error = try session.standardError()
    #expect(error.contains("Crash") || error.contains("0x"), "\(error)")
    #expect(try session.attributes().isRaw)
  }

  @Test("control: a program that does not forbid core dumps leaves one, and the checks see it")
  func coreDumpIsSeen() throws {
    let directory = try TemporaryDirectory()
    let options = coreDumpOptions(in: directory)
    let session = try TerminalSession(
      executable: "/usr/bin/python3", arguments: ["-c", "import os; os.abort()"],
      options: options)
    #expect(try session.waitForExit() == .signaled(SIGABRT))
    #expect(session.dumpedCore)
    #expect(entries(of: directory).contains { $0.hasPrefix("core") }, "\(entries(of: directory))")
  }

  @Test("the askpass too: a stack overflow restores the terminal and prints nothing")
  func askpassStackOverflow() throws {
    let directory = try TemporaryDirectory()
    let options = coreDumpOptions(in: directory)
    let session = try startAskpass(
      ["Passphrase:"], environment: [TestHook.faultVariable: TestHook.Fault.stackOverflow.rawValue],
      waitingFor: "Passphrase:", options: options)
    #expect(try session.attributes().isRaw)
    try session.send(signal: TestHook.faultTrigger)
    #expect(try session.waitForExit() == .signaled(SIGSEGV))
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!(try session.screen().bracketedPaste))
    #expect(try session.standardError() == "")
    #expect(!session.dumpedCore && entries(of: directory) == [])
  }
}
