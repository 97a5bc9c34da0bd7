import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// The tool's own process, stopped by the test hook once it has cached (or
/// read from the cache) and written the secret, holds no copy of it: the list
/// it read back and built went through secure memory only. The scan's control
/// is ``ToolResidueTests/controlFindsOrdinaryCopy()``, the same harness finding
/// a copy in a process that keeps one.
@Suite(
  "Residue: the tool's process after caching in, or reading from, the kernel keyring",
  .enabled(if: canReadHardenedProcesses && KeyringOracle.isAvailable, "needs root, keyctl"))
struct KeyringToolResidueTests {
  /// `secretfield prompt ARGUMENTS`, stopped before exit.
  private func stoppedPrompt(_ arguments: [String]) throws -> TerminalSession {
    var options = TerminalSession.Options()
    options.environment = [TestHook.stopBeforeExitVariable: "1"]
    options.standardOutput = .captured
    options.standardError = .captured
    return try TerminalSession(
      executable: secretfield, arguments: ["prompt"] + arguments, options: options)
  }

  private func wrote(_ marker: Marker, _ session: TerminalSession) throws -> Bool {
    let written = try session.capturedOutput(stream: 1, untilClosed: false)
    return written.count == marker.count + 1 && written.last == 0x0A
      && written.withUnsafeBytes {
        marker.isEqual(to: UnsafeRawBufferPointer(rebasing: $0[0..<marker.count]))
      }
  }

  @Test("typed, appended to a cached list and written: no copy left in the tool")
  func noCopyAfterCaching() throws {
    let marker = Marker(count: 32)
    let name = KeyringOracle.uniqueName("residue-cli-store")
    defer { KeyringOracle.remove(name) }
    // Something cached already, so the tool reads the list back and builds a new one.
    try #require(KeyringOracle.add(name, payload: Array("earlier".utf8)) != nil)
    let session = try stoppedPrompt(["--keyname", name, "Key:"])
    try session.waitForText("Key:")
    try session.type(bytes: marker.plainBytesForControl())
    try session.waitForMasks(marker.count, prompt: "Key:")
    try session.type(Key.enter)
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))
    #expect(try wrote(marker, session), "the tool wrote the typed secret before stopping")

    let report = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(report.copies == 0, "\(report)")
    #expect(report.bytesRead > 0, "\(report)")

    let cached = KeyringOracle.payload(name) ?? []
    let cachedTail =
      cached.count == 8 + marker.count
      && cached.withUnsafeBytes {
        marker.isEqual(to: UnsafeRawBufferPointer(rebasing: $0[8...]))
      }
    #expect(cachedTail, "the list holds the earlier one, a NUL, then the typed one")
    try session.send(signal: SIGCONT)
    #expect(try session.waitForExit() == .exited(0))
  }

  @Test("read from the cache with --accept-cached and written: no copy left in the tool")
  func noCopyAfterReading() throws {
    let marker = Marker(count: 32)
    let name = KeyringOracle.uniqueName("residue-cli-read")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: marker.plainBytesForControl()) != nil)
    let session = try stoppedPrompt(["--keyname", name, "--accept-cached"])
    #expect(try session.waitForStatus() == .stopped(SIGSTOP))
    #expect(try wrote(marker, session), "the tool wrote the cached secret before stopping")

    let report = try ResidueScanner(processID: session.processID).scan(for: marker)
    #expect(report.copies == 0, "\(report)")
    #expect(report.bytesRead > 0, "\(report)")
    try session.send(signal: SIGCONT)
    #expect(try session.waitForExit() == .exited(0))
  }
}
