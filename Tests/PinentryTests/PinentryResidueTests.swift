import Glibc
import Pinentry
import SecretField
import SecretFieldCLI
import SecureMemory
import TestSupport
import Testing

/// How a `D` line escapes one byte: the test's own statement of the rule.
func dataLineEscape(_ byte: UInt8) -> [UInt8] {
  switch byte {
  case UInt8(ascii: "%"): Array("%25".utf8)
  case 0x0D: Array("%0D".utf8)
  case 0x0A: Array("%0A".utf8)
  default: [byte]
  }
}

/// How `INQUIRE QUALITY` plus-escapes one byte.
func plusEscape(_ byte: UInt8) -> [UInt8] {
  let hex = Array("0123456789ABCDEF".utf8)
  switch byte {
  case UInt8(ascii: " "): return [UInt8(ascii: "+")]
  case 0..<0x20, 0x7F, UInt8(ascii: "+"), UInt8(ascii: "%"):
    return [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
  default: return [byte]
  }
}

/// A user interface that types a marker: its plain bytes are made inside the
/// passphrase's secure buffer and nowhere else. With `keepsPlainCopy` it also
/// keeps an ordinary copy, as a careless interface would (for the control).
struct MarkerInterface: PinentryInterface {
  let marker: Marker
  let keepsPlainCopy: Bool
  var keptCopy: [UInt8] = []

  mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) -> EntryOutcome<SecureBuffer> {
    let passphrase = marker.unmaskedInSecureBuffer(capacity: marker.count)
    _ = quality?.estimate(passphrase)
    if keepsPlainCopy { keptCopy = passphrase.withUnsafeBytes { Array($0) } }
    return .submitted(passphrase)
  }

  mutating func confirm(_ request: ConfirmRequest) -> EntryOutcome<Void> { .yes }
}

/// What the scans found after one GETPIN, in each form the passphrase takes.
struct ResidueCounts {
  var plain: ResidueScanner.Report
  var percentEscaped: ResidueScanner.Report
  var plusEscaped: ResidueScanner.Report
  /// How many `INQUIRE QUALITY` lines carried the whole passphrase, where a
  /// program was driven over its pipes.
  var inquiriesOfWholeMarker = 0
  /// The plain copies found while the program's field held the passphrase,
  /// before Enter, where the harness looked then.
  var copiesWhileHeld: Int? = nil
}

/// Which ordinary copies the run keeps on purpose, so the scans can be shown
/// to find them.
struct Leaks {
  var interfaceKeepsPlain = false
  var clientKeepsInquiryLine = false
  var clientKeepsDataLine = false
}

/// Runs a session on its own thread over two pipes and plays gpg-agent on this
/// one: `SETQUALITYBAR`, `GETPIN`, answers the quality inquiry, reads the `D`
/// line into secure memory and checks it. Then, while the session waits for
/// the next command, scans this process for the marker in its three forms.
func scanAfterGetPin(leaks: Leaks) throws -> ResidueCounts {
  let marker = Marker(count: 32, alphabet: .needingEscapes(lineBreaks: true))
  let percentEscaped = marker.encoded(by: dataLineEscape)
  let plusEscaped = marker.encoded(by: plusEscape)

  let requests = try Pipe()
  let responses = try Pipe()
  let (input, output) = (requests.readEnd, responses.writeEnd)
  let keepsPlain = leaks.interfaceKeepsPlain
  let session = BackgroundThread {
    var session = try! PinentrySession(
      input: input, output: output,
      interface: MarkerInterface(marker: marker, keepsPlainCopy: keepsPlain))
    _ = try! session.run()
  }

  var reader = try SecureLineReader(descriptor: responses.readEnd)
  var keptLines: [[UInt8]] = []
  #expect(try reader.nextText() == "OK Pleased to meet you")
  requests.send(Array("SETQUALITYBAR\n".utf8))
  #expect(try reader.nextText() == "OK")
  requests.send(Array("GETPIN\n".utf8))

  let inquiryPrefix = Array("INQUIRE QUALITY ".utf8)
  let inquiryMatches = try reader.withNextLine { line -> Bool in
    if leaks.clientKeepsInquiryLine { keptLines.append(Array(line)) }
    guard line.starts(with: inquiryPrefix) else { return false }
    return plusEscaped.isEqual(to: UnsafeRawBufferPointer(rebasing: line[inquiryPrefix.count...]))
  }
  #expect(inquiryMatches, "INQUIRE QUALITY carries the plus-escaped passphrase")
  requests.send(Array("D 77\nEND\n".utf8))

  var decoded = try SecureBuffer(capacity: marker.count)
  let dataMatches = try reader.withNextLine { line -> Bool in
    if leaks.clientKeepsDataLine { keptLines.append(Array(line)) }
    guard line.starts(with: Array("D ".utf8)) else { return false }
    let payload = UnsafeRawBufferPointer(rebasing: line[2...])
    try! AssuanEscaping.appendPercentDecoded(payload, to: &decoded)
    return percentEscaped.isEqual(to: payload)
  }
  #expect(dataMatches, "the D line carries the percent-escaped passphrase")
  let decodedMatches = decoded.withUnsafeBytes { marker.isEqual(to: $0) }
  #expect(decodedMatches, "the D line decodes to the passphrase")
  #expect(try reader.nextText() == "OK")

  // The transport buffers are consumed: drop the decoded copy, wipe what the
  // reader holds and the stack the comparisons ran on.
  _ = consume decoded
  reader.wipe()
  wipeStack()

  let scanner = ResidueScanner()
  let counts = ResidueCounts(
    plain: try scanner.scan(for: marker), percentEscaped: try scanner.scan(for: percentEscaped),
    plusEscaped: try scanner.scan(for: plusEscaped))
  withExtendedLifetime(keptLines) {}

  requests.send(Array("BYE\n".utf8))
  #expect(try reader.nextText() == "OK closing connection")
  session.join()
  return counts
}

/// Each scan runs in an exit-test child: tests run in parallel, and another
/// test's memory would otherwise be scanned too.
@Suite("Pinentry Residue: no copy of the passphrase after GETPIN")
struct PinentryResidueTests {
  @Test("after GETPIN and a quality inquiry, no copy in plain, percent- or plus-escaped form")
  func noResidue() async {
    await #expect(processExitsWith: .success) {
      let counts = try! scanAfterGetPin(leaks: Leaks())
      #expect(counts.plain.copies == 0, "\(counts.plain)")
      #expect(counts.percentEscaped.copies == 0, "\(counts.percentEscaped)")
      #expect(counts.plusEscaped.copies == 0, "\(counts.plusEscaped)")
    }
  }

  @Test("control: copies kept in ordinary memory by the interface and the client are found")
  func controlFindsKeptCopies() async {
    await #expect(processExitsWith: .success) {
      let counts = try! scanAfterGetPin(
        leaks: Leaks(
          interfaceKeepsPlain: true, clientKeepsInquiryLine: true, clientKeepsDataLine: true))
      #expect(counts.plain.copies >= 1, "\(counts.plain)")
      #expect(counts.percentEscaped.copies >= 1, "\(counts.percentEscaped)")
      #expect(counts.plusEscaped.copies >= 1, "\(counts.plusEscaped)")
    }
  }

  @Test("the escaped forms of the marker differ from the plain one and from each other")
  func formsDiffer() {
    let marker = Marker(count: 32, alphabet: .needingEscapes(lineBreaks: true))
    let plain = marker.plainBytesForControl()
    let percent = marker.encoded(by: dataLineEscape).plainBytesForControl()
    let plus = marker.encoded(by: plusEscape).plainBytesForControl()
    #expect(plain != percent && plain != plus && percent != plus)
    #expect(AssuanEscaping.percentDecoded(percent) == plain)
    for byte in Array("%+ \r\n".utf8) { #expect(plain.contains(byte)) }
  }
}

@Suite("PassphraseQuality outlives its GETPIN only as a programmer error")
struct PassphraseQualityMisuseTests {
  struct KeepingInterface: PinentryInterface {
    var kept: PassphraseQuality?
    mutating func getPin(
      _ request: PinRequest, quality: PassphraseQuality?
    ) -> EntryOutcome<SecureBuffer> {
      kept = quality
      return .ended(.cancelled(.escape))
    }
    mutating func confirm(_ request: ConfirmRequest) -> EntryOutcome<Void> { .yes }
  }

  @Test("estimate after GETPIN has returned traps")
  func estimateAfterwardsTraps() async {
    await #expect(processExitsWith: .failure) {
      let requests = try! Pipe()
      let responses = try! Pipe()
      requests.send(Array("SETQUALITYBAR\nGETPIN\n".utf8))
      requests.closeWriteEnd()
      var session = try! PinentrySession(
        input: requests.readEnd, output: responses.writeEnd, interface: KeepingInterface())
      _ = try! session.run()
      let passphrase = try! SecureBuffer(capacity: 8)
      _ = session.interface.kept?.estimate(passphrase)
    }
  }
}
