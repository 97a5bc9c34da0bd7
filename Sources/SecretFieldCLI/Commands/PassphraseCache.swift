import SecureMemory
import ToolSupport

/// The kernel-keyring cache of `secretfield prompt --keyname NAME` and of the
/// askpass's `SECRETFIELD_KEYNAME`, with the meaning of `systemd-ask-password`'s
/// `--keyname`, `--accept-cached` and `--multiple`: ask once, and for a while
/// the user's programs get the passphrase without asking again.
///
/// The cache is a convenience, never a condition: when the keyring cannot be
/// reached or refuses the key, a one-line warning goes to standard error and
/// the prompt asks as if there were no cache.
package struct PassphraseCache: Sendable, Hashable {
  /// The name of the key the passphrases are cached under (`--keyname`); nil
  /// for no cache.
  package var keyname: String?
  /// A cached passphrase is written without asking (`--accept-cached`).
  package var acceptsCached = false
  /// With ``acceptsCached``: every cached passphrase, one per line, instead of
  /// the first (`--multiple`).
  package var writesAll = false
  /// How long an answer stays cached (`--cache-timeout S`).
  package var timeout = KernelKeyring.defaultTimeout

  /// No cache.
  package init() {}

  /// A cache under `keyname` that accepts what is cached, as the askpass
  /// uses it.
  package init(acceptingCachedUnder keyname: String) {
    self.keyname = keyname
    self.acceptsCached = true
  }

  /// The options' lines of `--help`.
  static let help = """
      --keyname NAME   cache the answer in the kernel keyring under NAME, as
                       systemd-ask-password --keyname does, after those
                       cached there; your other processes can read it until
                       it expires (secretfield forget NAME removes it)
      --accept-cached  with --keyname: write the cached passphrase without
                       asking; ask only when none is cached
      --multiple       with --accept-cached: write every cached passphrase,
                       one per line
      --cache-timeout S
                       with --keyname: the cache forgets after S seconds
                       (rounded up to whole seconds; default 150)
    """

  /// Takes `option` when it is one of these; returns false for an option
  /// these do not know.
  mutating func parse(
    _ option: String, inline: String?, scanner: inout ArgumentScanner
  ) throws(UsageError) -> Bool {
    switch option {
    case "--keyname":
      let value = try scanner.value(of: option, inline: inline, describedAs: "a key name")
      guard !value.isEmpty, value.utf8.count <= 4095 else {
        throw .invalidValue(option, value, "a name of 1 to 4095 bytes, such as cryptsetup")
      }
      keyname = value
    case "--accept-cached":
      if inline != nil { throw .unexpectedValue(option) }
      acceptsCached = true
    case "--multiple":
      if inline != nil { throw .unexpectedValue(option) }
      writesAll = true
    case "--cache-timeout":
      timeout = try scanner.seconds(of: option, inline: inline, examples: "150 or 600")
    default:
      return false
    }
    return true
  }

  /// Checks that the options go together; `timeoutGiven` says whether
  /// `--cache-timeout` was on the command line.
  func validate(timeoutGiven: Bool) throws(UsageError) {
    if keyname == nil {
      for (given, option) in [
        (acceptsCached, "--accept-cached"), (writesAll, "--multiple"),
        (timeoutGiven, "--cache-timeout"),
      ] where given {
        throw UsageError(
          .missingArgument,
          "\(option) needs --keyname NAME, the name the passphrase is cached under")
      }
    }
    if writesAll && !acceptsCached {
      throw UsageError(
        .missingArgument,
        "--multiple needs --accept-cached: without it the prompt asks, and writes the one answer")
    }
  }
}

extension PassphraseCache {
  /// With ``acceptsCached``: writes what is cached under ``keyname`` to
  /// `context`'s standard output (the first passphrase, or all with
  /// ``writesAll``, each followed by a newline), from secure memory.
  ///
  /// - Parameter maximumByteCount: the most bytes the caller keeps of an
  ///   answer (ssh's limit, for the askpass); a longer cached one is refused.
  /// - Returns: the status to exit with once written (or when writing
  ///   failed, or it was refused); nil when nothing is cached, or the keyring failed (then with a
  ///   warning, its cause kept in `warned`): the caller asks.
  func writeCached(
    context: CommandContext, command: String, warned: inout KeyringError.Code?,
    maximumByteCount: Int? = nil
  ) -> ExitStatus? {
    guard acceptsCached, let keyname else { return nil }
    let keyring = KernelKeyring()
    var output: SecureBuffer
    do throws(KeyringError) {
      if writesAll {
        guard let entries = try keyring.readAll(name: keyname) else { return nil }
        output = entries.joined(separator: 0x0A)
      } else {
        guard let first = try keyring.read(name: keyname) else { return nil }
        output = first
        if let maximumByteCount, output.count > maximumByteCount {
          context.printError(
            "the passphrase cached under '\(keyname)' is \(output.count) bytes, more than the "
              + "\(maximumByteCount) the caller keeps; nothing was written (secretfield forget "
              + "\(keyname) removes it)", command: command)
          return .cancelled
        }
      }
    } catch {
      warn(error, asking: true, context: context, command: command, warned: &warned)
      return nil
    }
    do {
      try output.append(count: 1) { $0[0] = 0x0A }
      try output.write(to: context.standardOutput)
    } catch {
      context.printError(
        "could not write the cached passphrase to standard output: \(error)", command: command)
      return .cancelled
    }
    return .success
  }

  /// Adds `secret` to what is cached under ``keyname`` for ``timeout``;
  /// a failure is a warning, once.
  func remember(
    _ secret: borrowing SecureBuffer, context: CommandContext, command: String,
    warned: inout KeyringError.Code?
  ) {
    guard let keyname else { return }
    do throws(KeyringError) {
      try KernelKeyring().store(secret, name: keyname, timeout: timeout)
    } catch {
      warn(error, asking: false, context: context, command: command, warned: &warned)
    }
  }

  /// One line on standard error: the cause, and that the prompt goes on
  /// without the cache. A cause already told in this run (`warned`) is not
  /// told again: an unreachable keyring fails the read and the store alike.
  private func warn(
    _ error: KeyringError, asking: Bool, context: CommandContext, command: String,
    warned: inout KeyringError.Code?
  ) {
    if warned == error.code { return }
    warned = error.code
    let consequence =
      error.code == .unreachable
      ? "" : asking ? "; asking instead" : "; the passphrase was not cached"
    context.printError("warning: \(error.description)\(consequence)", command: command)
  }
}
