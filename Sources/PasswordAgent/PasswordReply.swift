public import SecureMemory

/// The answer to a ``PasswordRequest``: one datagram to its socket, `+` and
/// the password, or `-` when the user cancelled, as systemd's
/// `docs/PASSWORD_AGENTS.md` defines it (no trailing NUL: it is optional).
///
/// The password goes from its `SecureBuffer` straight to the
/// kernel: `sendmsg(2)` gathers the `+` byte and the buffer's read window, so
/// no ordinary buffer ever holds it. Sent from a new unbound `AF_UNIX`/
/// `SOCK_DGRAM` socket, with `MSG_NOSIGNAL`.
///
/// These connect to the path as it is at the time of the call, following a
/// link. An agent answering a request it checked connects with
/// ``RequestDirectory/connect(to:)`` before it asks, and answers on that
/// ``ReplySocket``.
public enum PasswordReply {
  /// Sends `+` and `secret` to `socketPath`.
  ///
  /// - Complexity: one `socket`, `connect` and `sendmsg`, two `mprotect` for
  ///   the window.
  /// - Throws: ``AgentError`` with code `replyFailed` (the asker is gone, its
  ///   socket refuses), `replyNotRead` or `socketPathTooLong`.
  public static func answer(
    _ secret: borrowing SecureBuffer, to socketPath: String
  ) throws(AgentError) {
    try ReplySocket(connectingTo: socketPath).answer(secret)
  }

  /// Sends `-`: the user declined to answer.
  ///
  /// - Throws: ``AgentError`` as ``answer(_:to:)``.
  public static func cancel(to socketPath: String) throws(AgentError) {
    try ReplySocket(connectingTo: socketPath).cancel()
  }
}
