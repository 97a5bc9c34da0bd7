package import SecureMemory
package import ToolSupport

/// What a command got when it asked for the password: the password, or the
/// status to exit with (the message already printed).
package enum SecretOutcome: ~Copyable {
  /// The password, in secure memory.
  case secret(SecureBuffer)
  /// No password: exit with this status.
  case ended(ExitStatus)
}
