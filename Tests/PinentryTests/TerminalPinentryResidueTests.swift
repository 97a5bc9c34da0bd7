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
/// passphrase typed on its terminal: after GETPIN, its memory holds the
/// passphrase in none of the forms it took on the way. The control is
/// ``PinentryCursesResidueTests``: the same harness finds what
/// pinentry-curses leaves.
@Suite(
  "pinentry-secretfield Residue: no copy of the typed passphrase after GETPIN",
  .enabled(if: canReadOtherProcesses && access(pinentrySecretfield, X_OK) == 0))
struct TerminalPinentryResidueTests {
  @Test("0 copies plain, percent-escaped and plus-escaped, after quality inquiries of it")
  func noCopyAfterGetPin() throws {
    let counts = try scanPinentryProgram(pinentrySecretfield, waitsForWholeInquiry: true)
    print(
      "pinentry-secretfield while held: plain \(counts.copiesWhileHeld ?? -1); after GETPIN: plain \(counts.plain.copies), percent-escaped "
        + "\(counts.percentEscaped.copies), plus-escaped \(counts.plusEscaped.copies)")
    // The plus-escaped form was made: the quality inquiry carried it.
    #expect(counts.inquiriesOfWholeMarker >= 1)
    // The control: before Enter, the field's copy is found in this hardened
    // process, so the scan reads where the passphrase lives.
    #expect(
      (counts.copiesWhileHeld ?? 0) >= 1,
      "while held: \(String(describing: counts.copiesWhileHeld))")
    #expect(counts.plain.copies == 0, "\(counts.plain)")
    #expect(counts.percentEscaped.copies == 0, "\(counts.percentEscaped)")
    #expect(counts.plusEscaped.copies == 0, "\(counts.plusEscaped)")
  }
}
