public import SecretField
public import SecretSources
import SecureMemory

extension SecretSource {
  /// Asks on the terminal with ``PasswordPrompt``, configured by
  /// `configuration`. Always set.
  ///
  /// A cancelled, timed-out or hung-up prompt is
  /// `SecretSourceError.Code.promptEnded` with the `EntryEnding` in
  /// `SecretSourceError.ending`; no terminal to ask on is
  /// `SecretSourceError.Code.promptFailed` with the ``TerminalError`` in
  /// `SecretSourceError.terminalError`.
  public static func terminal(_ configuration: PromptConfiguration) -> SecretSource {
    .asking(TerminalAsker(configuration: configuration))
  }
}

extension SecretSourceError {
  /// Why the terminal prompt could not run, for `promptFailed`.
  public var terminalError: TerminalError? { cause as? TerminalError }

  /// How the terminal prompt ended without a password, for `promptEnded`.
  public var ending: EntryEnding? { cause as? EntryEnding }
}

/// The terminal prompt, as a ``SecretSource`` asks through it.
struct TerminalAsker: SecretAsking {
  var configuration: PromptConfiguration

  func ask() throws(SecretSourceError) -> SecureBuffer {
    let result: EntryOutcome<SecureBuffer>
    do { result = try PasswordPrompt(configuration).run() } catch {
      throw SecretSourceError(.promptFailed, errno: error.errno, error.description, cause: error)
    }
    do { return try result.answer() } catch {
      throw SecretSourceError(.promptEnded, error.description, cause: error)
    }
  }
}
