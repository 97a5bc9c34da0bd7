import Glibc
import SecretFieldCLI
import Testing

/// A pipe whose ends close when the test is done with them.
final class Pipe {
  var readEnd: Int32
  var writeEnd: Int32

  /// A pipe that holds `capacity` bytes, so a session can run to its end
  /// before the test reads what it wrote.
  init(capacity: Int32 = 1 << 20) throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    // Close-on-exec, so a spawned program inherits only the ends mapped to its
    // standard descriptors. (pipe2 would do it atomically; Glibc's module does
    // not export it.)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    writeEnd = ends[1]
    // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc's module does not export.
    _ = fcntl(writeEnd, 1031, capacity)
  }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(writeEnd, $0.baseAddress! + offset, $0.count - offset)
      }
      precondition(written > 0, "Pipe: write failed")
      offset += written
    }
  }

  /// Everything up to end of file; close the write end first.
  func receiveAll() -> [UInt8] {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let got = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
      if got <= 0 { break }
      received += chunk[0..<got]
    }
    return received
  }

  func closeReadEnd() {
    if readEnd >= 0 { close(readEnd) }
    readEnd = -1
  }

  func closeWriteEnd() {
    if writeEnd >= 0 { close(writeEnd) }
    writeEnd = -1
  }

  deinit {
    closeReadEnd()
    closeWriteEnd()
  }
}

/// What a session said and did for a scripted client.
struct Conversation {
  var output: [UInt8]
  var interface: ScriptedInterface
  var ending: PinentryEnding

  /// The output as text, one response line per element, without LFs.
  var lines: [String] {
    output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// The responses after the greeting.
  var responses: [String] { Array(lines.dropFirst()) }
}

/// Runs a session that reads `input` (then end of file) and answers through
/// `interface`, and returns everything it wrote.
///
/// The client's answers to inquiries are part of `input`: the session reads
/// lines in order, so a scripted answer waits in the pipe until it is asked for.
func converse(
  _ input: String, interface: ScriptedInterface = ScriptedInterface()
) throws -> Conversation {
  try converse(bytes: Array(input.utf8), interface: interface)
}

func converse(bytes input: [UInt8], interface: ScriptedInterface) throws -> Conversation {
  let requests = try Pipe()
  let responses = try Pipe()
  requests.send(input)
  requests.closeWriteEnd()
  var session = try PinentrySession(
    input: requests.readEnd, output: responses.writeEnd, interface: interface, version: "9.8.7")
  let ending = try session.run()
  responses.closeWriteEnd()
  return Conversation(output: responses.receiveAll(), interface: session.interface, ending: ending)
}
