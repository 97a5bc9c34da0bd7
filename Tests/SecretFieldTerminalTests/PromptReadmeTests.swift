import SecretField
import SecretFieldTerminal
import SecureMemory
import Testing

/// The terminal prompt's example in the SecretFieldTerminal catalog's Getting
/// started article, as written there but for the terminal's path (the article's
/// blocks are compiled by ReadmeSnippetTests; this runs one without a terminal).
func readmePromptExample(terminalPath: String) throws(TerminalError) {
  var configuration = PromptConfiguration(prompt: "Passphrase:")
  configuration.confirmation = .init(prompt: "Again:", maximumAttempts: 3)
  configuration.timeout = .seconds(60)
  configuration.terminalPath = terminalPath
  do {
    let secret = try PasswordPrompt(configuration).run().answer()  // on /dev/tty
    try? secret.write(to: 1)  // a SecureBuffer, no copy
  } catch let ending as EntryEnding {
    print(ending)  // .cancelled, .timedOut, .hungUp, .confirmationFailed(attempts:)
  } catch {
    throw error as! TerminalError  // no terminal (the message says what to do)
  }
}

@Suite("The Getting started article's prompt example")
struct PromptReadmeTests {
  @Test("compiles, and without a terminal throws noTerminal with a message that says what to do")
  func example() {
    do {
      try readmePromptExample(terminalPath: "/nonexistent/tty")
      Issue.record("a prompt without a terminal returned")
    } catch {
      #expect(error.code == .noTerminal)
      #expect(error.description.contains("give the secret another way"))
      #expect(!error.description.contains("--"), "a library's message names no option")
    }
  }
}
