import SecretFieldCLI
import SecretFieldTerminal
import SecureMemory
import Testing
import ToolSupport

@Suite("Commands parse their arguments by hand")
struct ArgumentTests {
  @Test("prompt: every option lands where it should")
  func promptOptions() throws {
    let command = try PromptCommand(arguments: [
      "--confirm", "--timeout=2.5", "--no-reveal", "--mask", "#", "--min-length", "8",
      "Disk passphrase:",
    ])
    #expect(command.confirms)
    #expect(command.options.timeout == .milliseconds(2500))
    #expect(!command.options.allowsReveal)
    #expect(command.options.maskGlyph == "#")
    #expect(command.options.minimumLength == 8)
    let configuration = command.configuration(in: CommandContext())
    #expect(configuration.prompt == "Disk passphrase:")
    #expect(configuration.confirmation != nil)
    #expect(configuration.echo == .masked(glyph: "#"))
    #expect(configuration.minimumLength == 8)
    #expect(configuration.timeout == .milliseconds(2500))
    #expect(!configuration.allowsReveal)
  }

  @Test("prompt: -- ends the options, so a prompt may start with a dash")
  func endOfOptions() throws {
    let command = try PromptCommand(arguments: ["--", "--help me:"])
    #expect(command.options.text == "--help me:")
    #expect(command.configuration(in: CommandContext()).prompt == "--help me:")
  }

  @Test("prompt: defaults ask once, masked by the locale's glyph, no timeout")
  func defaults() throws {
    let configuration = try PromptCommand(arguments: []).configuration(in: CommandContext())
    #expect(configuration.prompt == "Password:")
    #expect(configuration.confirmation == nil)
    #expect(configuration.echo == .masked(glyph: nil))
    #expect(configuration.timeout == nil)
    #expect(configuration.terminalPath == "/dev/tty")
  }

  @Test("errors carry a code to compare")
  func errorCodes() {
    #expect(throws: UsageError.self) { try PromptCommand(arguments: ["--nope"]) }
    do {
      _ = try PromptCommand(arguments: ["--nope"])
    } catch {
      #expect(error.code == .unknownOption)
    }
    do {
      _ = try VerifyCommand(arguments: ["a", "--hash-file", "f"])
    } catch {
      #expect(error.code == .conflictingOptions)
    }
    do {
      _ = try HashCommand(arguments: ["--strength"])
    } catch {
      #expect(error.code == .missingValue)
    }
  }

  @Test("hash and verify take their own options")
  func hashAndVerify() throws {
    #expect(try HashCommand(arguments: ["--strength", "moderate"]).strength == .moderate)
    let verify = try VerifyCommand(arguments: ["--prompt", "PIN:", "--stdin", "$argon2id$x"])
    #expect(verify.hash == "$argon2id$x")
    #expect(verify.options.text == "PIN:")
    #expect(verify.options.readsStandardInput)
    #expect(try VerifyCommand(arguments: ["--hash-file", "h.txt"]).hashFile == "h.txt")
  }
}
