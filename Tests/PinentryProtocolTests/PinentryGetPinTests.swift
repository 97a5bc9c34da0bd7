import Pinentry
import Testing

@Suite("GETPIN sends the passphrase as D lines and reports every other ending")
struct PinentryGetPinTests {
  @Test(
    "a passphrase with %, CR, LF, +, spaces and multi-byte characters is escaped and decodes back")
  func awkwardPassphrase() throws {
    let passphrase = "50% of a+b c\r\nü€😀 "
    let talk = try converse("GETPIN\n", interface: ScriptedInterface(pins: [.enter(passphrase)]))
    #expect(talk.responses == ["D 50%25 of a+b c%0D%0Aü€😀 ", "OK"])
    #expect(decodeDataLines(talk.responses) == Array(passphrase.utf8))
  }

  @Test("a passphrase longer than one D line is split and decodes back")
  func longPassphrase() throws {
    let passphrase = (0..<2600).map { index -> UInt8 in
      switch index % 10 {
      case 0: UInt8(ascii: "%")
      case 5: UInt8(ascii: "\n")
      default: UInt8(ascii: "a") + UInt8(index % 26)
      }
    }
    let talk = try converse(
      bytes: Array("GETPIN\nNOP\n".utf8),
      interface: ScriptedInterface(pins: [.enter(passphrase)]))
    let dataLines = talk.responses.filter { $0.hasPrefix("D ") }
    #expect(dataLines.count >= 3)
    #expect(dataLines.allSatisfy { $0.utf8.count + 1 <= 1000 })
    #expect(talk.responses.suffix(2) == ["OK", "OK"])
    #expect(decodeDataLines(talk.responses) == passphrase)
  }

  @Test("an empty passphrase is no D line, then OK, as pinentry sends it")
  func emptyPassphrase() throws {
    let talk = try converse("GETPIN\n", interface: ScriptedInterface(pins: [.enter("")]))
    #expect(talk.responses == ["OK"])
  }

  struct EndingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let step: ScriptedInterface.PinStep
    let response: String
    var testDescription: String { name }
  }

  static let endings: [EndingCase] = [
    EndingCase(
      name: "cancelled", step: .cancel, response: "ERR 83886179 Operation cancelled <Pinentry>"),
    EndingCase(name: "timed out", step: .timeOut, response: "ERR 83886142 Timeout <Pinentry>"),
    EndingCase(
      name: "failed", step: .fail(.general("no terminal to prompt on")),
      response: "ERR 83886081 General error <Pinentry> - no terminal to prompt on"),
  ]

  @Test(
    "cancel, timeout and failure answer with their error and the session goes on",
    arguments: endings)
  func endingsAnswer(_ example: EndingCase) throws {
    let talk = try converse("GETPIN\nNOP\n", interface: ScriptedInterface(pins: [example.step]))
    #expect(talk.responses == [example.response, "OK"])
    #expect(talk.ending == .endOfInput)
  }

  @Test("Ctrl-C answers fully cancelled and ends the session")
  func fullyCancelled() throws {
    try expectFullyCancelled(
      "GETPIN\nNOP\nBYE\n", interface: ScriptedInterface(pins: [.fullyCancel]))
  }

  @Test("the SET texts reach the request: unescaped, labels without accelerator marks")
  func settingsReachRequest() throws {
    let talk = try converse(
      """
      SETTITLE Unlock%20key
      SETDESC Please enter the passphrase for%0A"Alice <a+b@example.org>"
      SETPROMPT _Pass__phrase:
      SETOK _Unlock
      SETCANCEL _Abort
      SETKEYINFO n/0123ABCD
      SETTIMEOUT 30
      GETPIN

      """,
      interface: ScriptedInterface(pins: [.enter("x")]))
    let request = try #require(talk.interface.pinRequests.first)
    #expect(request.stage == .passphrase)
    #expect(request.title == "Unlock key")
    #expect(request.description == "Please enter the passphrase for\n\"Alice <a+b@example.org>\"")
    #expect(request.prompt == "Pass_phrase:")
    #expect(request.okLabel == "Unlock")
    #expect(request.cancelLabel == "Abort")
    #expect(request.keyInfo == "n/0123ABCD")
    #expect(request.timeout == .seconds(30))
    #expect(request.error == nil)
    #expect(request.qualityBar == nil)
  }

  @Test(
    "SETTIMEOUT takes whole seconds; zero, negative or no number means no limit",
    arguments: [
      ("5", Duration.seconds(5)), ("0", nil), ("-3", nil), ("abc", nil), ("12abc", .seconds(12)),
    ])
  func timeouts(_ pair: (String, Duration?)) throws {
    let talk = try converse(
      "SETTIMEOUT 7\nSETTIMEOUT \(pair.0)\nGETPIN\n",
      interface: ScriptedInterface(pins: [.enter("x")]))
    #expect(talk.interface.pinRequests.first?.timeout == pair.1)
  }

  @Test("SETKEYINFO --clear and an empty SETKEYINFO clear the key info")
  func keyInfoClears() throws {
    let talk = try converse(
      "SETKEYINFO a\nSETKEYINFO --clear\nGETPIN\nSETKEYINFO b\nSETKEYINFO\nGETPIN\n",
      interface: ScriptedInterface(pins: [.enter("x"), .enter("y")]))
    #expect(talk.interface.pinRequests.map(\.keyInfo) == [nil, nil])
  }

  @Test("SETERROR is shown once: the next GETPIN or CONFIRM, not the one after")
  func errorShownOnce() throws {
    let talk = try converse(
      "SETERROR Bad Passphrase (try 2 of 3)\nGETPIN\nGETPIN\nSETERROR Again\nCONFIRM\nGETPIN\n",
      interface: ScriptedInterface(
        pins: [.enter("a"), .enter("b"), .enter("c")], confirms: [.confirmed]))
    #expect(talk.interface.pinRequests.map(\.error) == ["Bad Passphrase (try 2 of 3)", nil, nil])
    #expect(talk.interface.confirmRequests.map(\.error) == ["Again"])
  }

  @Test("SETERROR is forgotten after a cancelled GETPIN too")
  func errorForgottenAfterCancel() throws {
    let talk = try converse(
      "SETERROR Bad\nGETPIN\nGETPIN\n", interface: ScriptedInterface(pins: [.cancel, .enter("b")]))
    #expect(talk.interface.pinRequests.map(\.error) == ["Bad", nil])
  }

  @Test("RESET forgets the SET texts and keeps the options and the timeout")
  func resetKeeps() throws {
    let talk = try converse(
      """
      OPTION ttyname=/dev/pts/9
      OPTION default-ok=_Go
      SETTIMEOUT 12
      SETDESC before
      SETPROMPT Before:
      SETOK Yes
      SETERROR oops
      SETKEYINFO k
      RESET
      GETPIN

      """,
      interface: ScriptedInterface(pins: [.enter("x")]))
    let request = try #require(talk.interface.pinRequests.first)
    #expect(talk.responses.filter { $0 != "OK" } == ["D x"])
    #expect(request.description == nil && request.error == nil && request.keyInfo == nil)
    #expect(request.prompt == "PIN:")
    #expect(request.okLabel == "Go")
    #expect(request.environment.ttyName == "/dev/pts/9")
    #expect(request.timeout == .seconds(12))
  }
}

@Suite("SETREPEAT asks twice and compares in constant time")
struct PinentryRepeatTests {
  @Test("matching entries send S PIN_REPEATED before the D line")
  func match() throws {
    let talk = try converse(
      "SETREPEAT _Repeat:\nSETREPEATOK Match\nGETPIN\n",
      interface: ScriptedInterface(pins: [.enter("same pass"), .enter("same pass")]))
    #expect(talk.responses == ["OK", "OK", "S PIN_REPEATED", "D same pass", "OK"])
    let requests = talk.interface.pinRequests
    #expect(requests.map(\.stage) == [.passphrase, .repetition])
    #expect(requests.map(\.prompt) == ["PIN:", "Repeat:"])
    #expect(requests.map(\.repetitionMatchText) == [nil, "Match"])
  }

  @Test("a mismatch shows the repeat error and asks for both again")
  func mismatchThenMatch() throws {
    let talk = try converse(
      "SETPROMPT New:\nSETREPEAT Again:\nSETREPEATERROR does not match - try again\nGETPIN\n",
      interface: ScriptedInterface(pins: [
        .enter("first"), .enter("firsT"), .enter("second"), .enter("second"),
      ]))
    #expect(talk.responses == ["OK", "OK", "OK", "S PIN_REPEATED", "D second", "OK"])
    let requests = talk.interface.pinRequests
    #expect(requests.map(\.stage) == [.passphrase, .repetition, .passphrase, .repetition])
    #expect(requests.map(\.prompt) == ["New:", "Again:", "New:", "Again:"])
    #expect(requests.map(\.error) == [nil, nil, "does not match - try again", nil])
  }

  @Test("entries of different lengths do not match; without SETREPEATERROR our text is shown")
  func lengthMismatch() throws {
    let talk = try converse(
      "SETREPEAT\nGETPIN\n",
      interface: ScriptedInterface(pins: [
        .enter("abc"), .enter("abcd"), .enter("abc"), .enter("abc"),
      ]))
    #expect(talk.responses.suffix(3) == ["S PIN_REPEATED", "D abc", "OK"])
    #expect(
      talk.interface.pinRequests.map(\.error) == [
        nil, nil, PinentrySettings.defaultRepeatError, nil,
      ])
    #expect(talk.interface.pinRequests[1].prompt == PinentrySettings.defaultRepeatPrompt)
  }

  @Test("cancelling the repetition cancels the request")
  func cancelRepetition() throws {
    let talk = try converse(
      "SETREPEAT\nGETPIN\n", interface: ScriptedInterface(pins: [.enter("abc"), .cancel]))
    #expect(talk.responses == ["OK", "ERR 83886179 Operation cancelled <Pinentry>"])
  }

  @Test("SETREPEAT lasts for one GETPIN")
  func oneShot() throws {
    let talk = try converse(
      "SETREPEAT\nGETPIN\nGETPIN\n",
      interface: ScriptedInterface(pins: [.enter("a"), .enter("a"), .enter("b")]))
    #expect(talk.responses == ["OK", "S PIN_REPEATED", "D a", "OK", "D b", "OK"])
  }
}
