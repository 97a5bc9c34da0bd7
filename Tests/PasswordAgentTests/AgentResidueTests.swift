import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// The agent's memory, scanned from outside while it asks and after it
/// answered, against systemd-ask-password's own copy of the same passphrase
/// (the control, which shows the scan can find it). Reading hardened
/// processes needs root with `CAP_SYS_PTRACE`.
@Suite(
  "Residue: the agent's memory around the reply",
  .enabled(
    if: AskPasswordNamespace.isAvailable, "needs root, unshare, nsenter and systemd-ask-password"),
  .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
struct AgentResidueTests {
  @Test("at most 1 copy while asking, 0 after the reply; systemd-ask-password holds its own")
  func residue() throws {
    let marker = Marker(count: 32)
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Residue:", holdingOutput: true)
    var options = TerminalSession.Options()
    options.environment = [TestHook.stopBeforeExitVariable: "1"]
    let session = try namespace.startAgent(["--query"], options: options)
    try session.waitForText("Residue:")
    // Typed as a terminal sends a paste without brackets: one write.
    try session.type(bytes: marker.plainBytesForControl())
    try session.waitForMasks(marker.count, after: "Residue:")
    let asking = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(asking.copies <= 1, "\(asking)")
    #expect(asking.bytesRead > 0)

    try session.type(Key.enter)
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))
    let replied = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(replied.copies == 0, "\(replied)")
    #expect(!replied.refused.contains { $0 == "[heap]" || $0 == "[stack]" }, "\(replied.refused)")

    // The control: the asker got it (it blocks writing it to a full pipe),
    // and the same scan finds it in the asker's memory.
    try asker.waitUntilBlockedWriting()
    let peer = try ResidueScanner(processID: asker.processID).scan(for: marker)
    #expect(peer.copies >= 1, "\(peer)")

    try session.send(signal: SIGCONT)
    #expect(try session.waitForExit() == .exited(0))
    let answer = asker.finish()
    #expect(answer.status == 0)
    let answered =
      answer.output.count == marker.count + 1 && answer.output.last == 0x0A
      && answer.output.withUnsafeBytes {
        marker.isEqual(to: UnsafeRawBufferPointer(rebasing: $0[0..<marker.count]))
      }
    #expect(answered, "the asker printed the typed passphrase")
    print(
      "agent-residue: asking \(asking.copies), after reply \(replied.copies), systemd-ask-password \(peer.copies)"
    )
  }
}
