import ToolSupport

/// The way in for the executables.
///
/// `SecretFieldCLI` is not a library for other tools: it has no product and
/// declares nothing `public`. What the executables and the package's tests
/// call is `package`, the rest internal. (Not `@testable import`: the release
/// build that runs the residue tests is not compiled for testing, and
/// compiling it so would make the binaries under test differ from the shipped
/// ones.)
///
/// Each entry starts the process as every executable of the package does
/// (``ProcessStart``: the fault handler, hardening before any secret exists,
/// the test seams), runs its program with the arguments after the program's
/// name, and exits with the program's status.
package enum Executables {
  /// `secretfield`: the tool and its commands (``SecretFieldTool``).
  package static func secretfield(_ arguments: [String]) -> Never {
    ProcessStart.run { hardening in SecretFieldTool.run(arguments, hardening: hardening) }
  }

  /// `secretfield-askpass`: the askpass helper (``AskpassCommand``).
  package static func askpass(_ arguments: [String]) -> Never {
    ProcessStart.run { hardening in AskpassCommand.run(arguments, hardening: hardening) }
  }

  /// `git-credential-secretfield`: `secretfield credential`
  /// (``CredentialCommand``), its messages and `--version` under the helper's
  /// name.
  package static func credentialHelper(_ arguments: [String]) -> Never {
    ProcessStart.run { hardening in
      SecretFieldTool.run(
        [CredentialCommand.name] + arguments,
        context: CommandContext(toolName: CredentialCommand.helperName), hardening: hardening)
    }
  }

  /// `pinentry-secretfield`: the terminal pinentry (``PinentryProgram``).
  package static func pinentry(_ arguments: [String]) -> Never {
    ProcessStart.run { hardening in PinentryProgram.run(arguments, hardening: hardening) }
  }
}
