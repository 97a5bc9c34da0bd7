import Pinentry
import SecureMemory
import TestSupport
import Testing

/// What a session's requests cost in protection changes, counted by the
/// `ProtectionChangeCount` seam in a child process of its own (the count is
/// process-wide): a request line is found, parsed and removed in one window on
/// the incoming buffer, and a response that holds no secret is written from
/// ordinary memory, with no window at all. The passphrase's `D` lines still go
/// through the secure output buffer.
@Suite("AssuanConnection: one protection pair per request, none per public response")
struct AssuanProtectionCountTests {
  /// The protection changes a whole session over `input` makes.
  static func changes(_ input: String, pins: [ScriptedInterface.PinStep] = []) -> Int {
    let before = ProtectionChangeCount.current
    _ = try! converse(input, interface: ScriptedInterface(pins: pins))
    return ProtectionChangeCount.current - before
  }

  @Test("ten more request lines answered OK cost ten more pairs")
  func onePairPerLine() async {
    await #expect(processExitsWith: .success) {
      let one = AssuanProtectionCountTests.changes("NOP\n")
      let eleven = AssuanProtectionCountTests.changes(String(repeating: "NOP\n", count: 11))
      // The lines arrive in one read: its pair is shared.
      #expect(eleven - one == 20)
    }
  }

  @Test("a request answered with public lines costs what NOP costs")
  func publicResponses() async {
    await #expect(processExitsWith: .success) {
      // HELP answers with 26 comment lines and OK, GETINFO with a D line and
      // OK, the others with ERR: no line of them goes through secure memory.
      let nop = AssuanProtectionCountTests.changes("NOP\n")
      for request in ["HELP\n", "GETINFO pid\n", "GETINFO version\n", "FROBNICATE\n", "  NOP\n"] {
        #expect(AssuanProtectionCountTests.changes(request) == nop, "\(request)")
      }
    }
  }

  @Test("control: the passphrase's D line is built, written and wiped in secure memory")
  func passphraseLine() async {
    await #expect(processExitsWith: .success) {
      let responses = try! Pipe()
      let connection = try! AssuanConnection(
        input: -1, output: responses.writeEnd, storage: .sodium)
      var secret = try! SecureBuffer(capacity: 2)
      try! secret.append(count: 2) {
        $0[0] = UInt8(ascii: "p")
        $0[1] = UInt8(ascii: "%")
      }
      var before = ProtectionChangeCount.current
      try! connection.send(.data(Array("p%".utf8)))
      #expect(ProtectionChangeCount.current - before == 0)
      before = ProtectionChangeCount.current
      try! connection.sendData(secret)
      // The secret's read window, a write window on the output buffer for
      // each piece of the line ("D ", "p", "%25", the empty run after it, the
      // LF), a read window to write it and a write window to wipe it.
      #expect(ProtectionChangeCount.current - before == 16)
      responses.closeWriteEnd()
      #expect(responses.receiveAll() == Array("D p%25\nD p%25\n".utf8))
    }
  }
}
