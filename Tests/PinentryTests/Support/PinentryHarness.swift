import Glibc
import SecureMemory
import TestSupport
import Testing

/// A pinentry program driven as gpg-agent drives it: Assuan over its stdin and
/// stdout, and a pseudo-terminal, named with `OPTION ttyname`, for its user
/// interface. The harness types into the terminal's master and reads the
/// program's responses into secure memory.
final class PinentryHarness {
  let requests: Pipe
  let responses: Pipe
  let terminal: PseudoTerminal
  let process: TestProcess

  /// Starts `program`, with `TERM=xterm`, `extraEnvironment` (`NAME=value`
  /// entries) and nothing else of our environment.
  init(program: String, extraEnvironment: [String] = []) throws {
    requests = try Pipe()
    responses = try Pipe()
    terminal = try PseudoTerminal()
    // In a session of its own with no controlling terminal, as gpg-agent's
    // pinentry runs (setsid execs the program in place: same process ID).
    process = try TestProcess(
      ["/usr/bin/setsid", program],
      environment: .entries(
        ["TERM=xterm", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"] + extraEnvironment),
      standardInput: .descriptor(requests.readEnd),
      standardOutput: .descriptor(responses.writeEnd), standardError: .inherit)
    requests.closeReadEnd()
    responses.closeWriteEnd()
  }

  func send(_ line: String) {
    requests.send(Array((line + "\n").utf8))
  }

  /// Types `secret` into the terminal one byte per write, from secure memory,
  /// reading what the program draws after each key so its output never blocks.
  func type(_ secret: borrowing SecureBuffer) throws {
    for index in 0..<secret.count {
      try secret.write(to: terminal.master, range: index..<(index + 1))
      terminal.drain(timeout: 20)
    }
  }

  func typeText(_ text: String) {
    for byte in text.utf8 {
      _ = withUnsafeBytes(of: byte) { write(terminal.master, $0.baseAddress, 1) }
      terminal.drain(timeout: 20)
    }
  }

  deinit {
    requests.closeWriteEnd()
  }
}

/// Drives `program` through one GETPIN of a marker typed on its terminal, with
/// a quality bar asked for (`SETQUALITYBAR`; every `INQUIRE QUALITY` it sends
/// is answered), checks the D line, and scans the program's memory
/// (`/proc/PID/mem`, which needs root for a process that is not our child or
/// has hardened itself) for the marker in plain, percent-escaped and
/// plus-escaped form while it waits for the next command.
///
/// - Returns: the counts, and how many quality inquiries carried the whole
///   marker (plus-escaped).
///
/// - Parameter extraEnvironment: `NAME=value` entries for the program.
/// - Parameter waitsForWholeInquiry: the program inquires as the user types:
///   answer its inquiries until one carries the whole passphrase before
///   pressing Enter, so that form is made (keys that arrive together are one
///   edit and one inquiry, and Enter with them would end the entry first).
func scanPinentryProgram(
  _ program: String, waitsForWholeInquiry: Bool = false, extraEnvironment: [String] = []
) throws -> ResidueCounts {
  // Typed keys: no CR or LF, which would submit.
  let marker = Marker(count: 24, alphabet: .needingEscapes(lineBreaks: false))
  let percentEscaped = marker.encoded(by: dataLineEscape)
  let plusEscaped = marker.encoded(by: plusEscape)

  let harness = try PinentryHarness(program: program, extraEnvironment: extraEnvironment)
  var reader = try SecureLineReader(descriptor: harness.responses.readEnd)
  #expect(try reader.nextText() == "OK Pleased to meet you")
  for line in [
    "OPTION ttyname=\(harness.terminal.slaveName)", "OPTION ttytype=xterm",
    "OPTION lc-ctype=C.UTF-8",
    "SETDESC Residue harness", "SETPROMPT Marker:", "SETQUALITYBAR",
  ] {
    harness.send(line)
    #expect(try reader.nextText() == "OK", "\(line)")
  }
  let entered = try enterMarker(
    marker, prompt: "Marker:", harness: harness, reader: &reader,
    waitsForWholeInquiry: waitsForWholeInquiry)
  let (dataMatches, inquiriesOfWholeMarker, heldCopies) =
    (entered.dataMatches, entered.inquiriesOfWholeMarker, entered.heldCopies)
  #expect(dataMatches, "the D line carries the typed passphrase, percent-escaped")
  #expect(try reader.nextText() == "OK")
  reader.wipe()
  harness.terminal.drain(timeout: 100)

  let scanner = ResidueScanner(processID: harness.process.processID)
  let counts = ResidueCounts(
    plain: try scanner.scan(for: marker), percentEscaped: try scanner.scan(for: percentEscaped),
    plusEscaped: try scanner.scan(for: plusEscaped), inquiriesOfWholeMarker: inquiriesOfWholeMarker,
    copiesWhileHeld: heldCopies)

  harness.send("BYE")
  #expect(try reader.nextText() == "OK closing connection")
  #expect(harness.process.exitCode == 0)
  return counts
}

/// What ``enterMarker(_:prompt:harness:reader:waitsForWholeInquiry:)`` saw.
struct MarkerEntry {
  /// The D line carried the marker, percent-escaped.
  var dataMatches = false
  /// How many `INQUIRE QUALITY` lines carried the whole marker.
  var inquiriesOfWholeMarker = 0
  /// The plain copies found while the field held the marker, before Enter,
  /// when the program inquired with all of it.
  var heldCopies: Int?
}

/// Sends `GETPIN`, waits for `prompt` on the screen, types `marker` (from
/// secure memory) and Enter, answering every quality inquiry (and, with
/// `waitsForWholeInquiry`, scanning the program while its field holds the
/// whole marker, then pressing Enter), and reads the responses up to the D
/// line. The `OK` after the D line is left for the caller.
func enterMarker(
  _ marker: Marker, prompt: String, harness: PinentryHarness, reader: inout SecureLineReader,
  waitsForWholeInquiry: Bool
) throws -> MarkerEntry {
  let percentEscaped = marker.encoded(by: dataLineEscape)
  let plusEscaped = marker.encoded(by: plusEscape)
  harness.send("GETPIN")
  try #require(harness.terminal.waitForScreen(containing: prompt), "the prompt is drawn")

  var passphrase = try SecureBuffer(capacity: marker.count)
  marker.masked.withUnsafeBytes { try! passphrase.append($0) }
  passphrase.withUnsafeMutableBytes { marker.unmask(in: $0) }
  try harness.type(passphrase)
  _ = consume passphrase

  enum Response { case inquiry(carriesMarker: Bool), data(matches: Bool), other }
  let inquiryPrefix = Array("INQUIRE QUALITY ".utf8)
  var entry = MarkerEntry()
  var hasPressedEnter = false
  if !waitsForWholeInquiry {
    harness.typeText("\r")
    hasPressedEnter = true
  }
  reading: while true {
    let response = try reader.withNextLine { line -> Response in
      if line.starts(with: inquiryPrefix) {
        return .inquiry(
          carriesMarker: plusEscaped.isEqual(
            to: UnsafeRawBufferPointer(rebasing: line[inquiryPrefix.count...])))
      }
      guard line.starts(with: Array("D ".utf8)) else { return .other }
      return .data(
        matches: percentEscaped.isEqual(to: UnsafeRawBufferPointer(rebasing: line[2...])))
    }
    switch response {
    case .inquiry(let carriesMarker):
      if carriesMarker { entry.inquiriesOfWholeMarker += 1 }
      harness.send("D 50")
      harness.send("END")
      if carriesMarker && !hasPressedEnter {
        // The control: while the field holds it, the scan finds it, in this
        // hardened process too.
        entry.heldCopies = try ResidueScanner(processID: harness.process.processID).scan(
          for: marker
        )
        .copies
        harness.typeText("\r")
        hasPressedEnter = true
      }
    case .data(let matches):
      entry.dataMatches = matches
      break reading
    case .other:
      break reading
    }
  }
  return entry
}

/// What one session of two `GETPIN`s left, scanned for the first one's
/// passphrase.
struct SessionResidue {
  /// The plain copies while the first field held the passphrase (the control
  /// that the scan reaches the field's memory), nil when not scanned.
  var copiesWhileHeld: Int?
  /// The plain copies after the first reply, while the session waited.
  var afterFirstReply: ResidueScanner.Report
  /// The plain copies while the second prompt was on the screen, its kept
  /// buffers in use.
  var duringSecond: ResidueScanner.Report
  /// The second `GETPIN`'s answer, after Enter on its untouched field:
  /// `["OK"]` when the field started empty (no D line).
  var secondAnswer: [String]
}

/// Drives `program` through two `GETPIN`s of one session: the first types a
/// marker (with a quality bar, scanned while held) and submits it; the second,
/// with another prompt, is scanned while it is on the screen and submitted
/// untouched. Scans the program for the marker after the first reply and
/// during the second request.
func scanAcrossTwoGetPins(_ program: String, extraEnvironment: [String] = []) throws
  -> SessionResidue
{
  let marker = Marker(count: 24, alphabet: .needingEscapes(lineBreaks: false))
  let harness = try PinentryHarness(program: program, extraEnvironment: extraEnvironment)
  var reader = try SecureLineReader(descriptor: harness.responses.readEnd)
  #expect(try reader.nextText() == "OK Pleased to meet you")
  for line in [
    "OPTION ttyname=\(harness.terminal.slaveName)", "OPTION ttytype=xterm",
    "OPTION lc-ctype=C.UTF-8", "SETPROMPT Marker:", "SETQUALITYBAR",
  ] {
    harness.send(line)
    #expect(try reader.nextText() == "OK", "\(line)")
  }
  let first = try enterMarker(
    marker, prompt: "Marker:", harness: harness, reader: &reader, waitsForWholeInquiry: true)
  #expect(first.dataMatches, "the first D line carries the typed passphrase")
  #expect(try reader.nextText() == "OK")
  reader.wipe()
  harness.terminal.drain(timeout: 100)
  let scanner = ResidueScanner(processID: harness.process.processID)
  let afterFirstReply = try scanner.scan(for: marker)

  harness.send("SETPROMPT Again:")
  #expect(try reader.nextText() == "OK")
  harness.send("GETPIN")
  try #require(harness.terminal.waitForScreen(containing: "Again:"), "the second prompt is drawn")
  let duringSecond = try scanner.scan(for: marker)
  harness.typeText("\r")
  var secondAnswer: [String] = []
  while secondAnswer.last.map({ !$0.hasPrefix("OK") && !$0.hasPrefix("ERR") }) ?? true {
    secondAnswer.append(try reader.nextText())
  }

  harness.send("BYE")
  #expect(try reader.nextText() == "OK closing connection")
  #expect(harness.process.exitCode == 0)
  return SessionResidue(
    copiesWhileHeld: first.heldCopies, afterFirstReply: afterFirstReply,
    duringSecond: duringSecond, secondAnswer: secondAnswer)
}
