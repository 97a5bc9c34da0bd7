import PinentryTerminal
import Glibc
import TestSupport
import Testing

/// Reading another process's memory through `/proc/PID/mem` needs ptrace
/// rights over it: root with `CAP_SYS_PTRACE` has them for any process, a
/// hardened (not dumpable) one included.
private let canReadOtherProcesses: Bool = {
  guard getuid() == 0 else { return false }
  // CapEff's bit 19 (CAP_SYS_PTRACE), from /proc/self/status.
  let file = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
  guard file >= 0 else { return false }
  defer { close(file) }
  var bytes = [UInt8](repeating: 0, count: 8192)
  let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
  guard count > 0 else { return false }
  let text = String(decoding: bytes[0..<count], as: UTF8.self)
  guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
    let mask = UInt64(
      line.dropFirst("CapEff:".count).trimmingPrefix(while: \.isWhitespace), radix: 16)
  else { return false }
  return mask & (1 << 19) != 0
}()

/// pinentry-secretfield driven over its pipes as gpg-agent drives it, with the
/// passphrase typed on its terminal: while its field holds the passphrase (in
/// secret memory, as the tool allocates it) a scan from outside finds no copy,
/// and after GETPIN its memory holds the passphrase in none of the forms it
/// took on the way. The controls: the same tool with its secrets in sodium
/// memory gives the held passphrase away, and ``PinentryCursesResidueTests``
/// finds what pinentry-curses leaves.
@Suite(
  "pinentry-secretfield Residue: no copy of the typed passphrase during or after GETPIN",
  .enabled(if: canReadOtherProcesses && access(pinentrySecretfield, X_OK) == 0))
struct TerminalPinentryResidueTests {
  @Test(
    "0 copies while the field holds it in secret memory; 0 plain, percent- or plus-escaped after GETPIN"
  )
  func noCopyDuringOrAfterGetPin() throws {
    let counts = try scanPinentryProgram(pinentrySecretfield, waitsForWholeInquiry: true)
    // The plus-escaped form was made: the quality inquiry carried it.
    #expect(counts.inquiriesOfWholeMarker >= 1)
    #expect(
      counts.copiesWhileHeld == 0, "while held: \(String(describing: counts.copiesWhileHeld))")
    #expect(counts.plain.copies == 0, "\(counts.plain)")
    #expect(counts.percentEscaped.copies == 0, "\(counts.percentEscaped)")
    #expect(counts.plusEscaped.copies == 0, "\(counts.plusEscaped)")
  }

  @Test(
    "control: with its secrets in sodium memory, the held passphrase is found; none after GETPIN")
  func sodiumMemoryControl() throws {
    let counts = try scanPinentryProgram(
      pinentrySecretfield, waitsForWholeInquiry: true,
      extraEnvironment: ["SECRETFIELD_TEST_SODIUM_MEMORY=1"])
    #expect(counts.inquiriesOfWholeMarker >= 1)
    // Before Enter, the field's copy is found in this hardened process, so the
    // scan reads where the passphrase lives.
    #expect(
      (counts.copiesWhileHeld ?? 0) >= 1,
      "while held: \(String(describing: counts.copiesWhileHeld))")
    #expect(counts.plain.copies == 0, "\(counts.plain)")
    #expect(counts.percentEscaped.copies == 0, "\(counts.percentEscaped)")
    #expect(counts.plusEscaped.copies == 0, "\(counts.plusEscaped)")
  }

  @Test(
    "the session's kept buffers: 0 copies of a GETPIN's passphrase after its reply and during the next GETPIN, whose field starts empty"
  )
  func keptBuffersAreWipedBetweenRequests() throws {
    // Sodium memory, which the scan reads, so the field's kept buffer is in
    // what is scanned: the control is the copy found while it held the
    // passphrase.
    let residue = try scanAcrossTwoGetPins(
      pinentrySecretfield, extraEnvironment: ["SECRETFIELD_TEST_SODIUM_MEMORY=1"])
    #expect(
      (residue.copiesWhileHeld ?? 0) >= 1,
      "while held: \(String(describing: residue.copiesWhileHeld))")
    #expect(residue.afterFirstReply.copies == 0, "\(residue.afterFirstReply)")
    #expect(residue.duringSecond.copies == 0, "\(residue.duringSecond)")
    // Enter on the second field as it came: no D line, so it held nothing.
    #expect(residue.secondAnswer == ["OK"])
  }
}
