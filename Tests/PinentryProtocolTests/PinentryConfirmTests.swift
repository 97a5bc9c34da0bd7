import Pinentry
import Testing

@Suite("CONFIRM, CONFIRM --one-button and MESSAGE answer as pinentry does")
struct PinentryConfirmTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let command: String
    let result: ScriptedInterface.ConfirmStep
    let response: String
    var testDescription: String { "\(command), \(result) → \(response)" }
  }

  static let cancelled = "ERR 83886179 Operation cancelled <Pinentry>"
  static let cases: [Case] = [
    Case(command: "CONFIRM", result: .confirmed, response: "OK"),
    Case(command: "CONFIRM", result: .declined, response: "ERR 83886194 Not confirmed <Pinentry>"),
    Case(command: "CONFIRM", result: .cancelled, response: cancelled),
    Case(command: "CONFIRM", result: .timedOut, response: "ERR 83886142 Timeout <Pinentry>"),
    Case(
      command: "CONFIRM", result: .failed(.general("no tty")),
      response: "ERR 83886081 General error <Pinentry> - no tty"),
    Case(command: "CONFIRM --one-button", result: .confirmed, response: "OK"),
    Case(command: "CONFIRM --one-button", result: .cancelled, response: "OK"),
    Case(command: "CONFIRM --one-button", result: .declined, response: "OK"),
    Case(
      command: "CONFIRM --one-button", result: .timedOut,
      response: "ERR 83886142 Timeout <Pinentry>"),
    Case(command: "MESSAGE", result: .confirmed, response: "OK"),
    Case(command: "MESSAGE", result: .cancelled, response: "OK"),
  ]

  @Test("each ending gets its answer and the session goes on", arguments: cases)
  func answers(_ example: Case) throws {
    let talk = try converse(
      "\(example.command)\nNOP\n", interface: ScriptedInterface(confirms: [example.result]))
    #expect(talk.responses == [example.response, "OK"])
  }

  @Test("Ctrl-C answers fully cancelled and ends the session", arguments: ["CONFIRM", "MESSAGE"])
  func fullyCancelled(_ command: String) throws {
    try expectFullyCancelled(
      "\(command)\nNOP\n", interface: ScriptedInterface(confirms: [.fullyCancelled]))
  }

  @Test("CONFIRM offers OK and Cancel, and not-OK when the client set one")
  func buttons() throws {
    let talk = try converse(
      "SETDESC Trust%20this?\nSETTITLE T\nCONFIRM\nSETOK _Yes\nSETNOTOK _No\nSETCANCEL Stop\nCONFIRM\n",
      interface: ScriptedInterface(confirms: [.confirmed, .declined]))
    let requests = talk.interface.confirmRequests
    #expect(requests.count == 2)
    #expect(requests[0].description == "Trust this?" && requests[0].title == "T")
    #expect(
      requests[0].okLabel == "OK" && requests[0].notOkLabel == nil
        && requests[0].cancelLabel == "Cancel")
    #expect(!requests[0].isMessage)
    #expect(
      requests[1].okLabel == "Yes" && requests[1].notOkLabel == "No"
        && requests[1].cancelLabel == "Stop")
    #expect(talk.responses.last == "ERR 83886194 Not confirmed <Pinentry>")
  }

  @Test(
    "CONFIRM --one-button and MESSAGE offer OK alone",
    arguments: ["CONFIRM --one-button", "MESSAGE"])
  func oneButton(_ command: String) throws {
    let talk = try converse(
      "SETNOTOK No\nSETOK _Close\n\(command)\n",
      interface: ScriptedInterface(confirms: [.confirmed]))
    let request = try #require(talk.interface.confirmRequests.first)
    #expect(request.isMessage)
    #expect(request.okLabel == "Close" && request.notOkLabel == nil && request.cancelLabel == nil)
  }
}
