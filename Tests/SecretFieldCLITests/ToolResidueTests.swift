import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// A tool that prints a secret it asked for.
struct SecretTool: CustomTestStringConvertible, Sendable {
  let name: String
  let executable: String
  let arguments: [String]
  var testDescription: String { name }

  static let all = [
    SecretTool(name: "secretfield-askpass", executable: secretfieldAskpass, arguments: ["Key:"]),
    SecretTool(name: "secretfield prompt", executable: secretfield, arguments: ["prompt", "Key:"]),
  ]

  /// Starts the tool on a pty with `environment`, its standard output and
  /// error captured, and types `marker` once its prompt is up, as a terminal
  /// sends a paste without brackets (one write); returns once it shows the
  /// masks.
  func start(environment: [String: String], typing marker: Marker) throws -> TerminalSession {
    var options = TerminalSession.Options()
    options.environment = environment
    options.standardOutput = .captured
    options.standardError = .captured
    let session = try TerminalSession(
      executable: executable, arguments: arguments, options: options)
    try session.waitForText("Key:")
    try session.type(bytes: marker.plainBytesForControl())
    try session.waitForMasks(marker.count, prompt: "Key:")
    return session
  }
}

/// The tools' own processes, scanned from outside once they have written the
/// secret and before they exit (stopped there by the test hook), hold no copy
/// of it. Scanning a hardened process needs root with `CAP_SYS_PTRACE`.
@Suite("Residue: the tool's process after it has written the secret")
struct ToolResidueTests {
  @Test(
    "no copy of the typed secret anywhere in the tool's memory, stopped just before exit",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"),
    arguments: SecretTool.all)
  func noCopyBeforeExit(_ tool: SecretTool) throws {
    let marker = Marker(count: 32)
    let session = try tool.start(
      environment: [TestHook.stopBeforeExitVariable: "1"], typing: marker)
    try session.type(Key.enter)
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))

    // The control that the secret went through this process: it is on stdout.
    let written = try session.capturedOutput(stream: 1, untilClosed: false)
    let wroteSecret =
      written.count == marker.count + 1 && written.last == 0x0A
      && written.withUnsafeBytes {
        marker.isEqual(to: UnsafeRawBufferPointer(rebasing: $0[0..<marker.count]))
      }
    #expect(wroteSecret, "the tool wrote the typed secret before stopping")

    let report = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(report.copies == 0, "\(report)")
    #expect(report.bytesRead > 0, "\(report)")
    #expect(!report.refused.contains { $0 == "[heap]" || $0 == "[stack]" }, "\(report.refused)")

    try session.send(signal: SIGCONT)
    #expect(try session.waitForExit() == .exited(0))
  }

  @Test(
    "control: the same scan finds the typed secret in a process that keeps it in ordinary memory",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"))
  func controlFindsOrdinaryCopy() throws {
    let marker = Marker(count: 32)
    // Python reads the line into a str and its I/O buffers, then stops.
    let script = """
      import os, signal, sys
      line = sys.stdin.readline()
      os.kill(os.getpid(), signal.SIGSTOP)
      print(len(line))
      """
    let session = try TerminalSession(
      executable: "/usr/bin/python3", arguments: ["-c", script])
    try session.type(bytes: marker.plainBytesForControl() + [0x0A])
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))
    let report = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(report.copies >= 1, "\(report)")
    try session.send(signal: SIGCONT)
    #expect(try session.waitForExit() == .exited(0))
  }

  @Test(
    "waiting at the prompt with the secret typed and revealed: no copy readable from outside in secret memory; the control in sodium memory gives it away",
    .enabled(if: canReadHardenedProcesses, "needs root with CAP_SYS_PTRACE"),
    arguments: SecretTool.all, MemoryBacking.all)
  func noCopyReadableWhileWaiting(_ tool: SecretTool, _ backing: MemoryBacking) throws {
    let marker = Marker(count: 32)
    let session = try tool.start(environment: backing.environment, typing: marker)
    let masked = try ResidueScanner(processID: session.processID).scan(for: marker)
    try session.type(Key.tab)
    // The control that the field holds the secret: the tool draws it from there.
    try session.waitForText(
      "Key: " + String(decoding: marker.plainBytesForControl(), as: UTF8.self))
    let revealed = try ResidueScanner(processID: session.processID).scan(for: marker)
    if backing.isSecretMemory {
      #expect(masked.copies == 0, "\(masked)")
      #expect(revealed.copies == 0, "\(revealed)")
      #expect(!revealed.refused.isEmpty, "secret-memory pages refuse the scan: \(revealed)")
    } else {
      #expect(masked.copies >= 1, "\(masked)")
      #expect(revealed.copies >= 1, "\(revealed)")
    }
    #expect(masked.bytesRead > 0 && !masked.refused.contains { $0 == "[heap]" || $0 == "[stack]" })
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    let written = try session.capturedOutput(stream: 1, untilClosed: true)
    #expect(written.count == marker.count + 1, "the tool wrote the typed secret")
  }
}
