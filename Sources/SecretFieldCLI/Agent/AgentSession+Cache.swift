import PasswordAgent
import SecureMemory
import ToolSupport

extension AgentSession {
  /// The key name systemd-cryptsetup caches disk passphrases under, looked up
  /// after the request's own `Id=`.
  static let cryptsetupKeyName = "cryptsetup"

  /// The key names an `AcceptCached=1` request is looked up under, in order:
  /// its `Id=`, then ``cryptsetupKeyName``.
  static func cacheNames(for request: PasswordRequest) -> [String] {
    var names: [String] = []
    if let id = request.id { names.append(id) }
    if !names.contains(cryptsetupKeyName) { names.append(cryptsetupKeyName) }
    return names
  }

  /// Answers `request` with what the kernel keyring caches for it, without
  /// asking: every passphrase under the first of ``cacheNames(for:)`` that
  /// holds one, NUL-separated as systemd's agents send a list (the asker takes
  /// the first, or all with `--multiple`).
  ///
  /// The key's payload is already that list: it goes from the `SecureBuffer`
  /// `KEYCTL_READ` filled straight to `sendmsg(2)` on the request's
  /// connected socket (`ReplySocket`), never
  /// through an ordinary buffer.
  ///
  /// - Returns: `.answered`, or `.cancelled` when the reply could not be sent
  ///   (said on standard error); nil when nothing is cached (or the keyring
  ///   failed: then a one-line warning, once per run, as the prompt says it),
  ///   and the request is to be asked.
  mutating func answerFromCache(
    _ request: PasswordRequest, on socket: borrowing ReplySocket
  ) -> AskOutcome? {
    let keyring = KernelKeyring()
    for name in Self.cacheNames(for: request) {
      let entries: KeyringEntries
      do throws(KeyringError) {
        // An Id= the kernel cannot take as a key name names no key.
        guard let found = try keyring.readAll(name: name), !found.isEmpty else { continue }
        entries = found
      } catch  where error.code == .invalidName {
        continue
      } catch {
        warnOnce(error)
        return nil
      }
      let quoted = "'\(request.displayMessage)'"
      do {
        try socket.answer(entries.payload)
      } catch {
        context.printError("\(quoted): \(error)", command: AgentCommand.name)
        return .cancelled
      }
      context.printError(
        "\(quoted) answered with the passphrase cached under '\(PasswordRequest.escaped(name))'",
        command: AgentCommand.name)
      return .answered
    }
    return nil
  }

  /// One line on standard error for a keyring failure, the first time its
  /// cause is met in this run (a watch meets it at every request).
  private mutating func warnOnce(_ error: KeyringError) {
    if keyringWarning == error.code { return }
    keyringWarning = error.code
    let consequence = error.code == .unreachable ? "" : "; asking instead"
    context.printError("warning: \(error.description)\(consequence)", command: AgentCommand.name)
  }
}
