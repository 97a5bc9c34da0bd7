public import SecureMemory

/// A way to ask the user for a secret, which a front end supplies to
/// ``SecretSource``: the terminal prompt (`SecretSource.terminal(_:)`, from
/// `SecretFieldTerminal`), or a window.
///
/// A source module that reads files, descriptors, variables and commands needs
/// no terminal; a front end adds its way of asking by conforming a small value
/// to this protocol and offering a static member on ``SecretSource``:
///
/// ```swift
/// extension SecretSource {
///   static func window(title: String) -> SecretSource { .asking(WindowAsker(title: title)) }
/// }
/// ```
///
/// Equal askers ask the same question: ``SecretSource`` compares and hashes by
/// them.
public protocol SecretAsking: Sendable, Hashable {
  /// Asks, and returns the secret in secure memory.
  ///
  /// - Throws: ``SecretSourceError``: `SecretSourceError.Code.promptFailed`
  ///   when the asking could not happen (no terminal, no display), with the
  ///   front end's error as ``SecretSourceError/cause``;
  ///   `SecretSourceError.Code.promptEnded` when the user gave no secret
  ///   (cancelled, timed out), with how it ended as the cause.
  func ask() throws(SecretSourceError) -> SecureBuffer
}

/// A ``SecretAsking`` value of any type, as a ``SecretSource`` holds it.
public struct AnySecretAsker: Sendable, Hashable {
  /// The asker.
  public let base: any SecretAsking

  /// Wraps `base`.
  public init(_ base: some SecretAsking) { self.base = base }

  /// Equal when both wrap equal askers of the same type.
  public static func == (lhs: AnySecretAsker, rhs: AnySecretAsker) -> Bool {
    lhs.base.isEqual(to: rhs.base)
  }

  /// Hashes the wrapped asker.
  public func hash(into hasher: inout Hasher) { base.hash(into: &hasher) }
}

extension SecretAsking {
  fileprivate func isEqual(to other: any SecretAsking) -> Bool {
    (other as? Self) == self
  }
}
