import SecretFieldTerminal
import SecureMemory

/// The README's terminal prompt.
func terminalPrompt() throws {
  var configuration = PromptConfiguration(prompt: "Passphrase:")
  configuration.confirmation = .init(prompt: "Again:", maximumAttempts: 3)
  configuration.timeout = .seconds(60)
  do {
    let secret = try PasswordPrompt(configuration).run().secret()  // on /dev/tty
    try secret.write(to: 1)  // a SecureBuffer, no copy
  } catch PromptEnding.cancelled(let key) {
    print("cancelled by \(key)")  // .escape, .interrupt (^C), .endOfInput (^D)
  } catch let ending as PromptEnding {
    print(ending)  // .timedOut, .hungUp, .confirmationFailed(attempts:)
  }  // TerminalError (no terminal) goes up
}
