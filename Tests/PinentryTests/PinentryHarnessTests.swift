import Glibc
import TestSupport
import Testing

private let pinentryCurses = "/usr/bin/pinentry-curses"

private func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

/// Reading another process's memory through `/proc/PID/mem` needs ptrace
/// rights over it; root with `CAP_SYS_PTRACE` has them for any process.
private let canReadOtherProcesses = getuid() == 0

/// The harness that scans pinentry-secretfield, pointed at the system's
/// pinentry-curses: it must find what that pinentry leaves, or it could not
/// fail.
@Suite("pinentry-curses Residue: the process harness finds what the system pinentry leaves")
struct PinentryCursesResidueTests {
  @Test(
    "pinentry-curses still holds the passphrase after GETPIN",
    .enabled(if: canReadOtherProcesses && isExecutable(pinentryCurses)))
  func cursesLeavesACopy() throws {
    let counts = try scanPinentryProgram(pinentryCurses)
    let total = counts.plain.copies + counts.percentEscaped.copies + counts.plusEscaped.copies
    print(
      "pinentry-curses after GETPIN: plain \(counts.plain.copies), percent-escaped "
        + "\(counts.percentEscaped.copies), plus-escaped \(counts.plusEscaped.copies)")
    #expect(
      total >= 1,
      "plain: \(counts.plain); percent-escaped: \(counts.percentEscaped); plus-escaped: \(counts.plusEscaped)"
    )
  }
}

@Suite("A temporary GnuPG home runs gpg-agent with the pinentry under test")
struct GnuPGHomeTests {
  @Test(
    "gpg-connect-agent GET_PASSPHRASE receives what is typed into the pinentry's terminal",
    .enabled(if: isExecutable("/usr/bin/gpg-agent") && isExecutable(pinentryCurses)))
  func agentDrivesPinentry() throws {
    let home = try GnuPGHome(pinentryProgram: pinentryCurses)
    #expect((home.path + "/S.gpg-agent").utf8.count < 107)
    let terminal = try PseudoTerminal()
    let (client, output) = try home.start(
      "/usr/bin/gpg-connect-agent",
      ["GET_PASSPHRASE --data X X Harness%20prompt Harness%20description", "/bye"],
      environment: ["GPG_TTY=\(terminal.slaveName)", "TERM=xterm"])
    try #require(
      terminal.waitForScreen(containing: "Harness prompt"), "the agent started the pinentry")
    for byte in "correct horse%+\r".utf8 {
      _ = withUnsafeBytes(of: byte) { write(terminal.master, $0.baseAddress, 1) }
      terminal.drain(timeout: 20)
    }
    let answer = String(decoding: output.receiveAll(), as: UTF8.self)
    #expect(answer == "D correct horse%25+\nOK\n")
    #expect(client.exitCode == 0)
  }
}
