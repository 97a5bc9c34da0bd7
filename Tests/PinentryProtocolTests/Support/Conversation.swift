import Glibc
import Pinentry
import SecureMemory
import TestSupport
import Testing

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

/// Runs `input` against `interface`, whose user cancels fully (Ctrl-C),
/// and expects the one fully-cancelled error and the session's end there:
/// nothing after it is read.
func expectFullyCancelled(
  _ input: String, interface: ScriptedInterface,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let talk = try converse(input, interface: interface)
  #expect(
    talk.responses == ["ERR 83886278 Operation fully cancelled <Pinentry>"],
    sourceLocation: sourceLocation)
  #expect(talk.ending == .fullyCancelled, sourceLocation: sourceLocation)
}

func converse(bytes input: [UInt8], interface: ScriptedInterface) throws -> Conversation {
  let requests = try Pipe()
  let responses = try Pipe()
  requests.send(input)
  requests.closeWriteEnd()
  // Sodium memory: the protection-count tests count the guarded connection's
  // windows (a sealed one opens none).
  var session = try PinentrySession(
    input: requests.readEnd, output: responses.writeEnd, interface: interface, version: "9.8.7",
    storage: .sodium)
  let ending = try session.run()
  responses.closeWriteEnd()
  return Conversation(output: responses.receiveAll(), interface: session.interface, ending: ending)
}
