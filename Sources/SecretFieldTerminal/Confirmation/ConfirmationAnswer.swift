/// How a ``ConfirmationPrompt`` ended. None of it is secret.
public enum ConfirmationAnswer: Sendable, Hashable {
  /// The user pressed y.
  case yes
  /// The user pressed n.
  case no
  /// The user cancelled (Esc, ^C, or ^D), which counts as no.
  case cancelled(PromptCancellation)
  /// ``ConfirmationPrompt/timeout`` ran out.
  case timedOut
  /// The terminal went away.
  case hungUp

  /// True only for ``yes``: every other ending refuses.
  public var isYes: Bool { self == .yes }
}
