import SecretFieldTerminal
import SecureMemory
import Testing

/// The README's example of the terminal prompt, as written there but for the
/// terminal's path.
func readmePromptExample(terminalPath: String) throws(TerminalError) {
  var configuration = PromptConfiguration(prompt: "Passphrase:")
  configuration.confirmation = .init(prompt: "Again:", maximumAttempts: 3)
  configuration.timeout = .seconds(60)
  configuration.terminalPath = terminalPath
  do {
    let secret = try PasswordPrompt(configuration).run().secret()  // on /dev/tty
    try? secret.write(to: 1)  // a SecureBuffer, no copy
  } catch let ending as PromptEnding {
    print(ending)  // .cancelled, .timedOut, .hungUp, .confirmationFailed(attempts:)
  } catch {
    throw error as! TerminalError  // no terminal (the message says what to do)
  }
}

@Suite("The README's prompt example")
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
