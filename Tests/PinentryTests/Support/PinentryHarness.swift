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
  let process: ChildProcess

  /// Starts `program`, with `TERM=xterm`, `extraEnvironment` (`NAME=value`
  /// entries) and nothing else of our environment.
  init(program: String, extraEnvironment: [String] = []) throws {
    requests = try Pipe()
    responses = try Pipe()
    terminal = try PseudoTerminal()
    // In a session of its own with no controlling terminal, as gpg-agent's
    // pinentry runs (setsid execs the program in place: same process ID).
    process = try ChildProcess(
      "/usr/bin/setsid", arguments: [program],
      environment: ["TERM=xterm", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"] + extraEnvironment,
      standardInput: requests.readEnd, standardOutput: responses.writeEnd)
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
  harness.send("GETPIN")
  try #require(harness.terminal.waitForScreen(containing: "Marker:"), "the prompt is drawn")

  var passphrase = try SecureBuffer(capacity: marker.count)
  marker.masked.withUnsafeBytes { try! passphrase.append($0) }
  passphrase.withUnsafeMutableBytes { marker.unmask(in: $0) }
  try harness.type(passphrase)
  _ = consume passphrase

  enum Response { case inquiry(carriesMarker: Bool), data(matches: Bool), other }
  let inquiryPrefix = Array("INQUIRE QUALITY ".utf8)
  var dataMatches = false
  var inquiriesOfWholeMarker = 0
  var hasPressedEnter = false
  var heldCopies: Int?
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
      if carriesMarker { inquiriesOfWholeMarker += 1 }
      harness.send("D 50")
      harness.send("END")
      if carriesMarker && !hasPressedEnter {
        // The control: while the field holds it, the scan finds it, in this
        // hardened process too.
        heldCopies = try ResidueScanner(processID: harness.process.processID).scan(for: marker)
          .copies
        harness.typeText("\r")
        hasPressedEnter = true
      }
    case .data(let matches):
      dataMatches = matches
      break reading
    case .other:
      break reading
    }
  }
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
