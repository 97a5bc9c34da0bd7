import PinentryTerminal
import Glibc
import PTYSupport
import SecretFieldCLI
import ToolSupport
import TestSupport
import Testing

/// The fault injection of `TestHook.armFaultIfAsked()` exists in debug builds
/// only: the shipped pinentry cannot be made to fault.
#if DEBUG
  private let faultsCanBeInjected = true
#else
  private let faultsCanBeInjected = false
#endif

private let canRun =
  faultsCanBeInjected && access(pinentrySecretfield, X_OK) == 0
  && access("/usr/bin/setsid", X_OK) == 0

/// A fresh directory under `/tmp`, removed with what is in it when the value
/// goes.
private final class FaultDirectory {
  let path: String

  init() throws { path = try makeTemporaryDirectory(prefix: "sf-pinfault-") }

  /// The names in the directory, `.` and `..` left out.
  var entries: [String] { directoryEntries(path) }

  deinit {
    for name in entries { unlink(path + "/" + name) }
    rmdir(path)
  }
}

@Suite(
  "pinentry-secretfield: a real fault during GETPIN restores the terminal, dies by its signal, prints nothing and dumps no core",
  .enabled(if: canRun))
struct TerminalPinentryRealFaultTests {
  /// Starts the pinentry armed with `fault`, asks a GETPIN, types two
  /// characters, and checks the control: raw mode and the reports are on.
  fileprivate static func faultingRequest(
    _ fault: TestHook.Fault, in directory: FaultDirectory, standardError: Pipe
  ) throws -> TerminalPinentryDriver {
    let driver = try TerminalPinentryDriver(
      environment: ["\(TestHook.faultVariable)=\(fault.rawValue)"],
      coreDumpsIn: directory.path, standardError: standardError.writeEnd)
    standardError.closeWriteEnd()
    try driver.startGetPin(prompt: "Passphrase:")
    try driver.type(["a", "b"])
    try driver.waitForMasks(2, prompt: "Passphrase:")
    let during = try driver.terminal.attributes()
    #expect(during.isRaw && during != driver.terminal.initialAttributes, "\(during)")
    let screen = try driver.terminal.screen()
    #expect(screen.bracketedPaste && screen.focusReporting)
    return driver
  }

  @Test(
    "terminal restored, death by the fault's signal, stderr empty, no core file",
    arguments: TestHook.Fault.allCases.filter { $0 != .stackOverflowWithoutAlternateStack })
  func restoredBeforeDeath(_ fault: TestHook.Fault) throws {
    let directory = try FaultDirectory()
    let standardError = try Pipe()
    let driver = try Self.faultingRequest(fault, in: directory, standardError: standardError)
    try driver.fault(expectingDeathBy: fault.signal)
    try driver.expectTerminalRestored()
    let printed = String(decoding: standardError.receiveAll(), as: UTF8.self)
    #expect(printed == "", "nothing on stderr: no backtrace, no memory")
    #expect(!driver.process.dumpedCore)
    #expect(directory.entries == [])
  }

  @Test("control: without the alternate stack a stack overflow leaves the terminal raw")
  func stackOverflowWithoutAlternateStack() throws {
    let directory = try FaultDirectory()
    let standardError = try Pipe()
    let driver = try Self.faultingRequest(
      .stackOverflowWithoutAlternateStack, in: directory, standardError: standardError)
    try driver.fault(expectingDeathBy: SIGSEGV)
    #expect(try driver.terminal.attributes().isRaw)
    #expect(try driver.terminal.screen().bracketedPaste)
  }

  @Test(
    "secretfield-window pinentry on its terminal fallback, revealed: a fault masks the line, restores the terminal, prints nothing",
    .enabled(if: access(secretfieldWindow, X_OK) == 0),
    arguments: [TestHook.Fault.nullDereference, .abort, .overflowTrap])
  func windowFallbackRestoredBeforeDeath(_ fault: TestHook.Fault) throws {
    let directory = try FaultDirectory()
    let standardError = try Pipe()
    let driver = try TerminalPinentryDriver(
      program: secretfieldWindow, arguments: ["pinentry"],
      environment: ["\(TestHook.faultVariable)=\(fault.rawValue)"],
      coreDumpsIn: directory.path, standardError: standardError.writeEnd)
    standardError.closeWriteEnd()
    try driver.startGetPin(prompt: "Passphrase:")
    try driver.type(["q", "z", "x", "\t"])
    try driver.terminal.waitForScreen("the passphrase revealed") {
      $0.cursorLine.hasPrefix("Passphrase: qzx")
    }
    #expect(try driver.terminal.attributes().isRaw, "control: raw while asking")
    try driver.fault(expectingDeathBy: fault.signal)
    let screen = try driver.expectTerminalRestored()
    #expect(!screen.contains("qzx"), "the revealed passphrase stays on the screen:\n\(screen)")
    let printed = String(decoding: standardError.receiveAll(), as: UTF8.self)
    #expect(printed == "", "nothing on stderr: no backtrace, no memory")
    #expect(!driver.process.dumpedCore)
  }

  @Test("control: a program started the same way that does not forbid core dumps leaves one")
  func coreDumpIsSeen() throws {
    let directory = try FaultDirectory()
    let start = TerminalPinentryDriver.start(
      "/usr/bin/python3", arguments: ["-c", "import os; os.abort()"], coreDumpsIn: directory.path)
    let process = try TestProcess(
      [start.path] + start.arguments, environment: .exactly(["PATH": "/usr/bin:/bin"]),
      standardInput: .inherit, standardOutput: .inherit, standardError: .inherit)
    try #require(process.waitForEnd(), "python3 aborts")
    #expect(process.terminatingSignal == SIGABRT)
    #expect(process.dumpedCore)
    #expect(directory.entries.contains { $0.hasPrefix("core") }, "\(directory.entries)")
  }
}
