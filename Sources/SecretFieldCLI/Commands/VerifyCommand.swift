import SecretFieldTerminal
import SecureMemory
import SystemCalls
package import ToolSupport

/// `secretfield verify`: asks for a password once and checks it against an
/// Argon2id hash, by exit status.
package struct VerifyCommand: Command {
  /// `verify`.
  package static let name = "verify"
  /// One line for the tool's list.
  package static let summary = "ask for a password; check it against a hash (exit 0 or 4)"
  /// The text of `--help`.
  package static let help = """
    Usage: secretfield verify [OPTIONS] HASH
           secretfield verify [OPTIONS] --hash-file FILE

    Asks for a password once on the terminal and checks it against HASH, an
    Argon2id (or Argon2i) hash such as secretfield hash prints. Quote the hash:
    it holds $ signs. Prints nothing when it matches.

      secretfield verify '$argon2id$v=19$m=65536,t=2,p=1$...'

    Options:
      --hash-file FILE read the hash from FILE instead
    \(PromptOptions.help)

    Exit status: 0 matches; 1 cancelled or a --password-from source failed; 2
    usage error or malformed hash; 3 no terminal; 4 does not match; 124 timed
    out.
    """

  /// The prompt's options.
  package var options = PromptOptions()
  /// The hash given as an argument.
  package var hash: String?
  /// The file to read the hash from (`--hash-file`).
  package var hashFile: String?

  /// Parses `[OPTIONS] HASH` or `[OPTIONS] --hash-file FILE`.
  package init(arguments: [String]) throws(UsageError) {
    var scanner = ArgumentScanner(arguments)
    while let item = scanner.next() {
      switch item {
      case .option("--hash-file", let inline):
        hashFile = try scanner.value(of: "--hash-file", inline: inline, describedAs: "a file name")
      case .option(let name, let inline):
        try options.parse(name, inline: inline, scanner: &scanner)
      case .argument(let word):
        guard hash == nil else {
          throw .unexpectedArgument(
            word, "verify takes one hash; quote it, since it holds $ signs")
        }
        hash = word
      }
    }
    switch (hash, hashFile) {
    case (nil, nil):
      throw UsageError(
        .missingArgument, "give the hash to check against, or --hash-file FILE")
    case (_?, _?):
      throw .conflicting("a HASH argument", "--hash-file", "give the hash one way")
    default:
      break
    }
    try options.validate(confirms: false)
  }

  /// Reads the hash, prompts once, checks.
  package func run(in context: CommandContext) -> ExitStatus {
    let stored: PasswordHash
    switch loadHash() {
    case .success(let hash): stored = hash
    case .failure(let error):
      context.printError(error.description, command: Self.name)
      return .usageError
    }
    let configuration = options.configuration(
      defaultPrompt: "Password:", confirmation: nil, context: context)
    return options.withSecret(
      configuration: configuration, context: context, command: Self.name
    ) { secret in
      do throws(SecureMemoryError) {
        if try PasswordHash.verify(secret, against: stored) { return .success }
      } catch {
        context.printError(error.description, command: Self.name)
        return .cancelled
      }
      context.printError("the password does not match", command: Self.name)
      return .mismatch
    }
  }

  /// The hash from the argument or the file, checked by libsodium.
  func loadHash() -> Result<PasswordHash, UsageError> {
    var text: String
    var source: String
    if let hashFile {
      switch System.readSmallFile(hashFile, limit: 4096) {
      case .success(let contents): text = contents
      case .failure(let error):
        return .failure(
          UsageError(.invalidValue, "cannot read the hash from \(hashFile): \(error.description)"))
      }
      source = hashFile
    } else {
      text = hash ?? ""
      source = "the argument"
    }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    do {
      return .success(try PasswordHash(text))
    } catch {
      return .failure(
        UsageError(
          .malformedHash,
          "\(source) is not an Argon2 password hash (\(error.description)); "
            + "make one with secretfield hash"))
    }
  }
}
