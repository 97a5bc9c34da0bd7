import FuzzSupport
import Glibc
import Pinentry
import SecretField
import SecureMemory

// The pinentry's Assuan session: the fuzzer's bytes (after one that chooses
// how the user interface answers) are the client's requests, followed by a
// line feed, `END` (to close an inquiry left open) and `GETINFO pid`. The
// session runs to the end of its input over pipes. Checked:
//
// - every line it sends is a valid Assuan line: at most 1,000 bytes with its
//   LF; a `D` line has no CR and every `%` starts an escape; any other line
//   has no control byte at all (error texts quote the client's data);
// - unless the input said BYE or the user fully cancelled, the session still
//   answers the final `GETINFO pid` with this process's ID and `OK`.
//
// The interface answers GETPIN and CONFIRM in turn as the choice byte says:
// a passphrase taken from the requests themselves (so it holds CR, LF, %), a
// cancel, a timeout, a full cancel, or a failure whose text quotes what the
// client set (its ttyname, description and prompt), as the terminal front end
// quotes the ttyname. With a quality bar it asks the client, as the terminal
// pinentry does.

struct FuzzInterface: PinentryInterface {
  var choices: UInt8
  var passphrase: [UInt8]
  var calls = 0

  mutating func nextChoice() -> Int {
    defer { calls += 1 }
    return Int((choices >> UInt8((calls % 4) * 2)) & 3) + (calls % 2 == 1 ? 1 : 0)
  }

  mutating func getPin(
    _ request: PinRequest, quality: PassphraseQuality?
  ) throws(AssuanError) -> EntryOutcome<SecureBuffer> {
    let choice = nextChoice()
    var secret = try! SecureBuffer(capacity: max(1, passphrase.count))
    passphrase.withUnsafeBytes { try! secret.append($0) }
    if let quality { _ = quality.estimate(secret) }
    switch choice {
    case 0: return .submitted(secret)
    case 1: return .ended(.cancelled(.escape))
    case 2:
      throw .general(
        "cannot use \(request.environment.ttyName ?? "-"): \(request.description ?? "")"
          + " \(request.prompt) \(request.error ?? "")")
    case 3: return .ended(.timedOut)
    default: return choices & 0x80 != 0 ? .ended(.cancelled(.interrupt)) : .submitted(secret)
    }
  }

  mutating func confirm(_ request: ConfirmRequest) throws(AssuanError) -> EntryOutcome<Void> {
    switch nextChoice() {
    case 0: return .yes
    case 1: return .ended(.declined)
    case 2: throw .general("cannot show \(request.description ?? "")")
    case 3: return .ended(.timedOut)
    default:
      return choices & 0x80 != 0 ? .ended(.cancelled(.interrupt)) : .ended(.cancelled(.escape))
    }
  }
}

/// A pipe with room for everything a session of a bounded input writes.
func makePipe(capacity: Int32) -> (read: Int32, write: Int32) {
  var ends: [Int32] = [0, 0]
  require(pipe(&ends) == 0, "pipe: errno \(errno)")
  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7).
  _ = fcntl(ends[1], 1031, capacity)
  return (ends[0], ends[1])
}

func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes {
      write(descriptor, $0.baseAddress! + offset, $0.count - offset)
    }
    require(written > 0, "write to the request pipe: errno \(errno)")
    offset += written
  }
}

func readAll(_ descriptor: Int32) -> [UInt8] {
  var received: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if got <= 0 { break }
    received += chunk[0..<got]
  }
  return received
}

/// True for one valid response line without its LF.
func isValidLine(_ line: ArraySlice<UInt8>) -> Bool {
  guard line.count + 1 <= 1000 else { return false }
  if line.starts(with: [UInt8(ascii: "D"), UInt8(ascii: " ")]) {
    var index = line.startIndex
    while index < line.endIndex {
      let byte = line[index]
      if byte == 0x0D || byte == 0x0A { return false }
      if byte == UInt8(ascii: "%") {
        guard index + 2 < line.endIndex + 0, isHex(line[index + 1]), isHex(line[index + 2]) else {
          return false
        }
      }
      index += 1
    }
    return true
  }
  return !line.contains { $0 < 0x20 || $0 == 0x7F }
}

func isHex(_ byte: UInt8) -> Bool {
  (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
}

/// libFuzzer's entry point: one input, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssuanSession(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: start, count: count))
  let choices = input.byte()
  let requests = Array(input.take(8192))
  let passphrase = Array(requests.prefix(40))
  let trailer = Array("\nEND\nGETINFO pid\n".utf8)

  let incoming = makePipe(capacity: 1 << 16)
  let outgoing = makePipe(capacity: 1 << 20)
  writeAll(requests + trailer, to: incoming.write)
  close(incoming.write)
  var ending: PinentryEnding?
  do {
    var session = try PinentrySession(
      input: incoming.read, output: outgoing.write,
      interface: FuzzInterface(choices: choices, passphrase: passphrase))
    ending = try session.run()
  } catch {
    require(false, "the session failed: \(error)")
  }
  close(incoming.read)
  close(outgoing.write)
  let output = readAll(outgoing.read)
  close(outgoing.read)

  require(output.last == UInt8(ascii: "\n"), "output ends without a line feed: \(output)")
  let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    .dropLast()
  for line in lines {
    require(isValidLine(line), "an invalid line: \(Array(line)) for requests \(requests)")
  }
  if ending != .bye && ending != .fullyCancelled {
    let last = Array(lines.suffix(2))
    require(
      last.count == 2 && Array(last[0]) == Array("D \(getpid())".utf8)
        && Array(last[1]) == Array("OK".utf8),
      "GETINFO pid unanswered at the end: \(last.map { String(decoding: $0, as: UTF8.self) })")
  }
  return 0
}
