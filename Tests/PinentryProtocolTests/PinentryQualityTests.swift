import Pinentry
import Testing

@Suite("The quality bar asks the client with INQUIRE QUALITY from inside GETPIN")
struct PinentryQualityTests {
  @Test("the inquiry carries the plus-escaped passphrase and the answer reaches the interface")
  func roundTrip() throws {
    let passphrase: [UInt8] = Array("a b+c%d".utf8) + [0x01] + Array("é".utf8)
    let talk = try converse(
      bytes: Array("SETQUALITYBAR\nGETPIN\nD 42\nEND\nNOP\n".utf8),
      interface: ScriptedInterface(pins: [.enter(passphrase, estimatingQuality: true)]))
    #expect(
      talk.responses == ["OK", "INQUIRE QUALITY a+b%2Bc%25d%01é", "D a b+c%25d\u{01}é", "OK", "OK"])
    #expect(talk.interface.qualityScores == [42])
    #expect(talk.interface.qualityOffered == [true])
    #expect(talk.interface.pinRequests.first?.qualityBar == QualityBar(label: "Quality:"))
  }

  struct AnswerCase: CustomTestStringConvertible, Sendable {
    let name: String
    let answer: String
    let score: Int?
    var testDescription: String { name }
  }

  static let answers: [AnswerCase] = [
    AnswerCase(name: "a negative number", answer: "D -30\nEND\n", score: -30),
    AnswerCase(
      name: "comments and empty lines skipped", answer: "# thinking\n\nD 7\nEND\n", score: 7),
    AnswerCase(name: "clamped above", answer: "D 250\nEND\n", score: 100),
    AnswerCase(name: "clamped below", answer: "D -1000000000000\nEND\n", score: -100),
    AnswerCase(name: "data over several lines", answer: "D 1\nD 2\nEND\n", score: 12),
    AnswerCase(name: "no number", answer: "D high\nEND\n", score: nil),
    AnswerCase(name: "END alone", answer: "END\n", score: nil),
    AnswerCase(name: "CAN", answer: "CAN\n", score: nil),
    AnswerCase(name: "ERR", answer: "ERR 1 no\n", score: nil),
    // libassuan's assuan_inquire fails with GPG_ERR_ASS_UNEXPECTED_CMD: a
    // client that sends a command instead never answers.
    AnswerCase(name: "another command fails it, dropped", answer: "NOP\n", score: nil),
    AnswerCase(
      name: "a line too long", answer: "D " + String(repeating: "1", count: 1200) + "\nD 5\nEND\n",
      score: nil),
    AnswerCase(
      name: "more data than an answer takes",
      answer: String(repeating: "D " + String(repeating: "9", count: 900) + "\n", count: 6)
        + "END\n", score: nil),
  ]

  @Test("the client's answer is read to its end and becomes a score", arguments: answers)
  func answersBecomeScores(_ example: AnswerCase) throws {
    let talk = try converse(
      "SETQUALITYBAR Strength:\nGETPIN\n\(example.answer)NOP\n",
      interface: ScriptedInterface(pins: [.enter("pw", estimatingQuality: true)]))
    #expect(talk.interface.qualityScores == [example.score])
    #expect(talk.responses == ["OK", "INQUIRE QUALITY pw", "D pw", "OK", "OK"])
    #expect(talk.interface.pinRequests.first?.qualityBar?.label == "Strength:")
  }

  @Test("only the first 300 bytes are sent, cut back to a whole UTF-8 character")
  func longPassphrase() throws {
    let passphrase = Array(String(repeating: "a", count: 299).utf8) + Array("€€".utf8)
    let talk = try converse(
      bytes: Array("SETQUALITYBAR\nGETPIN\nD 1\nEND\n".utf8),
      interface: ScriptedInterface(pins: [.enter(passphrase, estimatingQuality: true)]))
    #expect(talk.responses[1] == "INQUIRE QUALITY " + String(repeating: "a", count: 299))
  }

  @Test("without SETQUALITYBAR, and after the GETPIN it was set for, no quality handle is offered")
  func onlyWhenAsked() throws {
    let talk = try converse(
      "GETPIN\nSETQUALITYBAR\nSETQUALITYBAR_TT tip\nGETPIN\nD 1\nEND\nGETPIN\n",
      interface: ScriptedInterface(pins: [
        .enter("a", estimatingQuality: true), .enter("b", estimatingQuality: true),
        .enter("c", estimatingQuality: true),
      ]))
    #expect(talk.interface.qualityOffered == [false, true, false])
    #expect(talk.interface.qualityScores == [1])
    #expect(
      talk.interface.pinRequests.map(\.qualityBar) == [
        nil, QualityBar(label: "Quality:", tooltip: "tip"), nil,
      ])
  }

  @Test("a client that goes away during the inquiry ends the session without a D line")
  func clientGoneDuringInquiry() throws {
    let talk = try converse(
      "SETQUALITYBAR\nGETPIN\nD 1\n",
      interface: ScriptedInterface(pins: [.enter("pw", estimatingQuality: true)]))
    #expect(talk.responses == ["OK", "INQUIRE QUALITY pw"])
    #expect(talk.ending == .endOfInput)
    #expect(talk.interface.qualityScores == [nil])
  }
}
