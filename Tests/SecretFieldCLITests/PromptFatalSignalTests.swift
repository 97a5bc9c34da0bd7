import Glibc
import PTYSupport
import Testing

/// A signal whose default action ends the process, beyond INT, TERM and HUP
/// (PromptTerminalStateTests): the catchable ones the relay takes, and the
/// faults the fault handler takes (sent with `kill`, as the attack sent them).
struct FatalSignal: CustomTestStringConvertible, Sendable {
  let name: String
  let number: Int32
  var testDescription: String { name }

  static let catchable = [
    FatalSignal(name: "SIGUSR1", number: SIGUSR1), FatalSignal(name: "SIGUSR2", number: SIGUSR2),
    FatalSignal(name: "SIGVTALRM", number: SIGVTALRM),
    FatalSignal(name: "SIGPROF", number: SIGPROF),
    FatalSignal(name: "SIGXCPU", number: SIGXCPU), FatalSignal(name: "SIGXFSZ", number: SIGXFSZ),
    FatalSignal(name: "SIGPWR", number: SIGPWR), FatalSignal(name: "SIGQUIT", number: SIGQUIT),
    FatalSignal(name: "SIGSTKFLT", number: SIGSTKFLT), FatalSignal(name: "SIGIO", number: SIGIO),
    // The C library's range, never hard-coded: glibc keeps the first ones.
    FatalSignal(name: "SIGRTMIN", number: __libc_current_sigrtmin()),
    FatalSignal(name: "SIGRTMIN+1", number: __libc_current_sigrtmin() + 1),
    FatalSignal(name: "SIGRTMAX-1", number: __libc_current_sigrtmax() - 1),
    FatalSignal(name: "SIGRTMAX", number: __libc_current_sigrtmax()),
  ]
  static let faults = [
    FatalSignal(name: "SIGSEGV", number: SIGSEGV), FatalSignal(name: "SIGBUS", number: SIGBUS),
    FatalSignal(name: "SIGILL", number: SIGILL), FatalSignal(name: "SIGFPE", number: SIGFPE),
    FatalSignal(name: "SIGABRT", number: SIGABRT), FatalSignal(name: "SIGTRAP", number: SIGTRAP),
    FatalSignal(name: "SIGSYS", number: SIGSYS),
  ]
}

@Suite("Every signal that ends the prompt restores the terminal first, and prints no backtrace")
struct PromptFatalSignalTests {
  @Test(
    "the termios and private modes are restored, the process dies by the signal, stderr is empty",
    arguments: FatalSignal.catchable + FatalSignal.faults)
  func restoredBeforeDeath(_ signal: FatalSignal) throws {
    let session = try startPrompt()
    try session.typeMasked("ab")
    // The control: raw mode and the reports are on while prompting.
    try session.expectPromptModes()
    try session.send(signal: signal.number)
    #expect(try session.waitForExit() == .signaled(signal.number))
    try session.expectTerminalRestored()
    #expect(try session.standardError() == "", "nothing on stderr, no backtrace")
    #expect(try session.standardOutput() == "")
  }

  @Test("the askpass too, for a fault and a catchable signal", arguments: [SIGSEGV, SIGUSR1])
  func askpass(_ number: Int32) throws {
    let session = try startAskpass(["Passphrase:"], waitingFor: "Passphrase:")
    let during = try session.attributes()
    #expect(during.isRaw, "\(during)")
    try session.send(signal: number)
    #expect(try session.waitForExit() == .signaled(number))
    #expect(try session.attributes() == session.initialAttributes)
    #expect(!(try session.screen().bracketedPaste))
    #expect(try session.standardError() == "")
  }
}

/// The signals glibc keeps for itself, 32 up to its `SIGRTMIN`.
private let libraryInternalSignals = Array(32..<__libc_current_sigrtmin())

@Suite("The C library's own signals (32, 33) do not end the prompt")
struct PromptLibraryInternalSignalTests {
  @Test(
    "sent with kill, the prompt goes on in raw mode and Enter gives back what was typed",
    arguments: libraryInternalSignals)
  func promptGoesOn(_ number: Int32) throws {
    let session = try startPrompt()
    try session.typeMasked("ab")
    try session.send(signal: number)
    try session.type("c")
    try session.waitForMasks(3)
    #expect(try session.attributes().isRaw)
    try session.submit(expectingOutput: "abc\n")
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test(
    "control: a program that does not block them dies of one with the terminal raw",
    arguments: libraryInternalSignals)
  func unblockedDies(_ number: Int32) throws {
    let script = "import os, sys, tty; tty.setraw(0); os.write(1, b'ready'); os.read(0, 1)"
    let session = try TerminalSession(executable: "/usr/bin/python3", arguments: ["-c", script])
    try session.waitForText("ready")
    try session.send(signal: number)
    #expect(try session.waitForExit() == .signaled(number))
    #expect(try session.attributes().isRaw)
  }
}
