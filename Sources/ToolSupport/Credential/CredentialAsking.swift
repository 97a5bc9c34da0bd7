package import SecureMemory

/// A front end that asks the user for a user name and a password when git
/// needs a credential and none is cached: the terminal's two-field form
/// (``TerminalCredentialAsker``), or a window.
///
/// The one seam between `secretfield credential get` and whatever asks: the
/// command reads git's request, looks in the cache, and only then asks; it
/// checks and writes the answer itself. A front end shows the question,
/// prints its own messages on `context`'s standard error when it cannot ask,
/// and hands back the password in secure memory, never as a `String`.
package protocol CredentialAsking: Sendable {
  /// Asks for the credential `question` describes.
  func ask(_ question: CredentialQuestion, in context: CommandContext) -> CredentialAnswer
}

/// What git asks a credential for, as a front end shows it.
package struct CredentialQuestion: Sendable, Hashable {
  /// The protocol, host and path (when git sent one); its user name, when
  /// set, is what git already knows: the front end shows it filled in, and
  /// the user may change it.
  package var target: CredentialTarget
  /// The memory the answer's password is kept in.
  package var storage: SecureStorage

  /// A question for `target`, whose password goes into `storage`.
  package init(target: CredentialTarget, storage: SecureStorage) {
    self.target = target
    self.storage = storage
  }

  /// The line a front end shows above its fields: what the credential is
  /// for, without the user name (`git: https://example.com/repo.git`).
  package var title: String {
    var shown = target
    shown.username = nil
    return "git: \(shown)"
  }
}

/// How asking ended.
package enum CredentialAnswer: ~Copyable {
  /// The user gave a user name and a password.
  case credential(username: String, password: SecureBuffer)
  /// The user cancelled: git is told not to ask anyone else (`quit=1`).
  case declined
  /// The front end could not ask, or asking ended without an answer (no
  /// terminal, a timeout, the terminal gone); its message is printed. Git is
  /// told nothing, and may ask in its own way.
  case failed(ExitStatus)
}
