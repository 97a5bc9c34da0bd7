import SecureMemory
package import ToolSupport

/// `secretfield forget NAME`: removes the passphrases cached under NAME from
/// the kernel keyring, before their timeout. `secretfield forget --git URL`:
/// removes the git credentials `secretfield credential` cached for URL.
package struct ForgetCommand: Command {
  /// `forget`.
  package static let name = "forget"
  /// One line for the tool's list.
  package static let summary = "remove cached passphrases or git credentials from the keyring"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield forget NAME
           secretfield forget --git URL

    Removes the passphrases cached under NAME (by secretfield prompt --keyname
    NAME, or systemd-ask-password --keyname=NAME) from your kernel keyring at
    once, instead of at the end of their timeout. Prints nothing when it
    removed them; says so on standard error when nothing was cached.

      secretfield forget backup

    --git URL removes the git credentials secretfield credential cached for
    URL: those of its host, and of its path and user name when it has them.

      secretfield forget --git https://example.com
      secretfield forget --git https://alice@example.com/team/repo.git

    Exit status: 0 removed, or nothing was cached; 1 the keyring cannot be
    reached or refused; 2 usage error.
    """

  /// What to remove.
  package enum Target: Sendable, Hashable {
    /// The key of this name.
    case keyname(String)
    /// The git credentials this URL asks for.
    case git(CredentialTarget)
  }

  /// What to remove.
  package var target: Target

  /// The key's name, for a `forget NAME`; nil for `--git`.
  package var keyname: String? {
    if case .keyname(let name) = target { name } else { nil }
  }

  /// Parses `NAME`, or `--git URL`.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    var names: [String] = []
    var url: String?
    while let item = scanner.next() {
      switch item {
      case .option("--git", let inline):
        url = try scanner.value(of: "--git", inline: inline, describedAs: "a URL")
      case .option(let name, _): throw .unknownOption(name)
      case .argument(let word): names.append(word)
      }
    }
    if let url {
      if let name = names.first {
        throw .unexpectedArgument(name, "--git takes the URL; forget a NAME on its own")
      }
      do throws(CredentialTarget.URLProblem) {
        let parsed = try CredentialTarget(url: url)
        guard !parsed.host.isEmpty else { throw .noProtocol }
        target = .git(parsed)
      } catch .holdsPassword {
        throw .invalidValue("--git", "(a URL with a password)", "a URL without a password in it")
      } catch {
        throw .invalidValue("--git", url, "a URL such as https://example.com/repo.git")
      }
      return
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
    target = .keyname(first)
  }

  /// Removes the key, or the credentials (`KEYCTL_INVALIDATE`).
  package func run(in context: CommandContext) -> ExitStatus {
    switch target {
    case .keyname(let keyname):
      do throws(KeyringError) {
        if try !KernelKeyring().remove(name: keyname) {
          context.printError("nothing is cached under '\(keyname)'", command: Self.name)
        }
        return .success
      } catch {
        context.printError(error.description, command: Self.name)
        return .cancelled
      }
    case .git(let credential):
      do throws(CredentialError) {
        let removed = try CredentialCache(storage: ToolMemory.storage).erase(
          credential, password: nil)
        if removed == 0 {
          context.printError("no git credential is cached for \(credential)", command: Self.name)
        }
        return .success
      } catch {
        context.printError(error.description, command: Self.name)
        return .cancelled
      }
    }
  }
}
