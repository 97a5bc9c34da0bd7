import SecretField
import SecureMemory
import Testing

@Suite("EntryOutcome and EntryEnding: how any front end ended, in one type")
struct EntryOutcomeTests {
  static let endings: [EntryEnding] = [
    .cancelled(.escape), .cancelled(.interrupt), .cancelled(.endOfInput), .cancelled(.button),
    .declined, .timedOut, .hungUp, .withdrawn, .confirmationFailed(attempts: 3),
  ]

  @Test("a submitted outcome gives its answer; an ended one throws its ending")
  func answerOrEnding() throws {
    var buffer = try SecureBuffer(capacity: 8)
    try Array("one line".utf8).withUnsafeBytes { try buffer.append($0) }
    let submitted = EntryOutcome<SecureBuffer>.submitted(buffer)
    #expect(submitted.isSubmitted && submitted.ending == nil)
    let answer = try submitted.answer()
    #expect(answer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == "one line")
    for ending in Self.endings {
      let outcome = EntryOutcome<SecureBuffer>.ended(ending)
      #expect(outcome.ending == ending && !outcome.isSubmitted)
      do {
        _ = try outcome.answer()
        Issue.record("\(ending) gave an answer")
      } catch {
        #expect(error == ending)
      }
    }
  }

  @Test("a yes-or-no outcome compares: yes, or how it ended")
  func yesOrNo() {
    #expect(EntryOutcome<Void>.yes == .submitted(()))
    #expect(EntryOutcome<Void>.yes != .ended(.declined))
    #expect(EntryOutcome<Void>.ended(.declined) == .ended(.declined))
    #expect(EntryOutcome<Void>.ended(.declined) != .ended(.cancelled(.button)))
  }

  @Test("every ending says what happened in words", arguments: endings)
  func descriptions(_ ending: EntryEnding) {
    #expect(!ending.description.isEmpty)
    #expect(Set(Self.endings.map(\.description)).count == Self.endings.count)
  }
}
