import Glibc
import SecretFieldTerminal
import SecureMemory
import TestSupport
import Testing

@Suite("PromptResult.secret(): a result in one line")
struct PromptEndingTests {
  @Test("a submitted result gives its buffer; the others throw their ending")
  func secretOrEnding() throws {
    let submitted = PromptResult.submitted(try secureText("one line"))
    let secret = try submitted.secret()
    #expect(text(secret) == "one line")

    let endings: [PromptEnding] = [
      .cancelled(.escape), .cancelled(.endOfInput), .timedOut, .hungUp,
      .confirmationFailed(attempts: 3), .withdrawn,
    ]
    for ending in endings {
      let result: PromptResult =
        switch ending {
        case .cancelled(let key): .cancelled(key)
        case .timedOut: .timedOut
        case .hungUp: .hungUp
        case .confirmationFailed(let attempts): .confirmationFailed(attempts: attempts)
        case .withdrawn: .withdrawn
        }
      #expect(result.ending == ending)
      do {
        _ = try result.secret()
        Issue.record("\(ending) gave a secret")
      } catch {
        #expect(error == ending)
      }
    }
  }

  @Test("several endings match in one case, as a copyable error does")
  func patterns() {
    let ending = PromptEnding.hungUp
    switch ending {
    case .timedOut, .hungUp, .confirmationFailed, .withdrawn: break
    case .cancelled: Issue.record("matched the wrong case")
    }
    #expect(ending.description == "the terminal went away before the password was entered")
  }
}
