import FuzzSupport
import Glibc
@_spi(Fuzzing) import SecretSources
import SecureMemory

// What a source reads from outside: messages on a datagram or seqpacket
// socket, and environment blocks. The first byte chooses; even: messages.
//
// Messages: up to four, each a length byte and its bytes, sent on a
// `socketpair` of the chosen type, the sender closed, then
// `SecretSource.descriptor` read with a limit of 16 bytes. Checked against a
// model of the rule, byte for byte: the first message alone is read (the
// kernel cuts it to the limit, a CR and an LF); its first line, without a CR
// before the LF, or the whole message when it has no LF; longer than the
// limit is `tooLong`; no message on a seqpacket socket (or an empty one,
// which reads as the end) is `empty`; a line with a NUL byte is
// `containsNul`. Nothing of a second message is ever in the secret.
//
// Environment blocks: up to eight entries, each one of a few shapes around
// the name `PW` (`PW=`, `PWX=`, `P=`, `PW` without `=`, `XPW=`, `=PW=`) and
// bytes without NUL. After `scrubEnvironment("PW", in:)`, every entry that
// starts with `PW=` has its value zeroed to its end, and every other byte of
// the block is as it was.

let limit = 16

enum Model: Equatable {
  case secret([UInt8])
  case failed(SecretSourceError.Code)
}

func modelLine(_ message: [UInt8]?) -> Model {
  guard let message, !message.isEmpty else { return .failed(.empty) }
  let seen = Array(message.prefix(limit + 2))
  var line: [UInt8]
  if let lineFeed = seen.firstIndex(of: 0x0A) {
    line = Array(seen[..<lineFeed])
  } else {
    if seen.count > limit { return .failed(.tooLong) }
    line = seen
  }
  if line.last == 0x0D { line.removeLast() }
  if line.count > limit { return .failed(.tooLong) }
  // One rule for every source: a secret with a NUL byte is refused.
  if line.contains(0) { return .failed(.containsNul) }
  return .secret(line)
}

func checkMessages(_ input: inout FuzzInput) {
  let type = Int32((input.byte() % 2 == 0 ? SOCK_DGRAM : SOCK_SEQPACKET).rawValue)
  var messages: [[UInt8]] = []
  // A datagram socket has no end: with no message the read would wait for
  // ever, as it should; a seqpacket socket's end is read as one.
  let count = input.number(in: 0...4)
  for _ in 0..<(type == Int32(SOCK_DGRAM.rawValue) ? max(1, count) : count) {
    messages.append(Array(input.take(Int(input.byte()))))
  }
  var pair: [Int32] = [0, 0]
  require(socketpair(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0, "socketpair")
  defer { close(pair[0]) }
  for message in messages {
    let sent = message.withUnsafeBytes { send(pair[1], $0.baseAddress, $0.count, 0) }
    require(sent == message.count, "send: \(sent), errno \(errno)")
  }
  close(pair[1])
  let got: Model
  do {
    let secret = try SecretSource.descriptor(pair[0]).obtain(
      maximumByteCount: limit, reportingWarnings: { _ in })
    got = .secret(secret.withUnsafeBytes { Array($0) })
  } catch {
    got = .failed(error.code)
  }
  let expected = modelLine(messages.first)
  require(
    got == expected,
    "\(type == Int32(SOCK_DGRAM.rawValue) ? "datagrams" : "seqpacket") \(messages): got \(got), "
      + "the rule says \(expected)")
}

let shapes: [[UInt8]] = ["PW=", "PWX=", "P=", "PW", "XPW=", "=PW="].map { Array($0.utf8) }

func checkEnvironment(_ input: inout FuzzInput) {
  var entries: [[UInt8]] = []
  for _ in 0..<input.number(in: 0...8) {
    let shape = shapes[input.number(in: 0...(shapes.count - 1))]
    let value = input.take(input.number(in: 0...12)).map { $0 == 0 ? 0x61 : $0 }
    entries.append(shape + value)
  }
  let pointers = entries.map { entry -> UnsafeMutablePointer<CChar> in
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: entry.count + 1)
    for (index, byte) in entry.enumerated() { pointer[index] = CChar(bitPattern: byte) }
    pointer[entry.count] = 0
    return pointer
  }
  defer { for pointer in pointers { pointer.deallocate() } }
  var block: [UnsafeMutablePointer<CChar>?] = pointers + [nil]
  block.withUnsafeMutableBufferPointer {
    SecretSource.scrubEnvironment("PW", in: $0.baseAddress)
  }
  let key = Array("PW=".utf8)
  for (entry, pointer) in zip(entries, pointers) {
    let after = (0..<entry.count).map { UInt8(bitPattern: pointer[$0]) }
    let expected =
      entry.starts(with: key)
      ? key + [UInt8](repeating: 0, count: entry.count - key.count) : entry
    require(after == expected, "\(entry) scrubbed to \(after), the rule says \(expected)")
    require(pointer[entry.count] == 0, "the NUL after \(entry) changed")
  }
}

/// libFuzzer's entry point: one input, checked as described above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretSourceInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  var input = FuzzInput(UnsafeRawBufferPointer(start: start, count: count))
  if input.byte() % 2 == 0 { checkMessages(&input) } else { checkEnvironment(&input) }
  return 0
}
