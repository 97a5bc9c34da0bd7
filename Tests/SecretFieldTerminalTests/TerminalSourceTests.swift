import SecureMemory
import SecretFieldTerminal
import SecretSources
import Testing

@Suite("SecretSource.terminal: the prompt as a source")
struct TerminalSourceTests {
  @Test("a prompt with no terminal fails with the prompt's error inside")
  func promptFails() {
    var configuration = PromptConfiguration(prompt: "P:")
    configuration.terminalPath = "/nonexistent/tty"
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.terminal(configuration).obtain()
    }
    #expect(error?.code == .promptFailed)
    #expect(error?.terminalError?.code == .noTerminal)
    #expect(error?.ending == nil)
  }

  @Test("always set; equal configurations make equal sources, others not (control)")
  func equality() {
    let first = SecretSource.terminal(PromptConfiguration(prompt: "P:"))
    #expect(first.isSet)
    #expect(first == .terminal(PromptConfiguration(prompt: "P:")))
    #expect(first != .terminal(PromptConfiguration(prompt: "Q:")))
    #expect(
      SecretSource.firstAvailable([
        .environment(name: "SF_UNSET_\(UInt32.random(in: 1...UInt32.max))"), first,
      ]) == first)
  }
}
