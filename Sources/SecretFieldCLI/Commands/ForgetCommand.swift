import SecureMemory
package import ToolSupport

/// `secretfield forget NAME`: removes the passphrases cached under NAME from
/// the kernel keyring, before their timeout.
package struct ForgetCommand: Command {
  /// `forget`.
  package static let name = "forget"
  /// One line for the tool's list.
  package static let summary = "remove passphrases cached with --keyname from the kernel keyring"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield forget NAME

    Removes the passphrases cached under NAME (by secretfield prompt --keyname
    NAME, or systemd-ask-password --keyname=NAME) from your kernel keyring at
    once, instead of at the end of their timeout. Prints nothing when it
    removed them; says so on standard error when nothing was cached.

      secretfield forget backup

    Exit status: 0 removed, or nothing was cached; 1 the keyring cannot be
    reached or refused; 2 usage error.
    """

  /// The key's name.
  package var keyname: String

  /// Parses `NAME`.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    var names: [String] = []
    while let item = scanner.next() {
      switch item {
      case .option(let name, _): throw .unknownOption(name)
      case .argument(let word): names.append(word)
      }
    }
    guard let first = names.first else {
      throw UsageError(
        .missingArgument,
        "give the name the passphrase is cached under, as in secretfield forget backup")
    }
    if names.count > 1 {
      throw .unexpectedArgument(names[1], "forget takes one name; run it once for each")
    }
    guard !first.isEmpty, first.utf8.count <= 4095 else {
      throw .invalidValue("NAME", first, "a name of 1 to 4095 bytes")
    }
    keyname = first
  }

  /// Removes the key (`KEYCTL_INVALIDATE`).
  package func run(in context: CommandContext) -> ExitStatus {
    do throws(KeyringError) {
      if try !KernelKeyring().remove(name: keyname) {
        context.printError("nothing is cached under '\(keyname)'", command: Self.name)
      }
      return .success
    } catch {
      context.printError(error.description, command: Self.name)
      return .cancelled
    }
  }
}
