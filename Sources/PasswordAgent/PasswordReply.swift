public import SecureMemory

/// The answer to a ``PasswordRequest``: one datagram to its socket, `+` and
/// the password, or `-` when the user cancelled, as systemd's
/// `docs/PASSWORD_AGENTS.md` defines it (no trailing NUL: it is optional).
///
/// The password goes from its `SecureBuffer` straight to the
/// kernel: `sendmsg(2)` gathers the `+` byte and the buffer's read window, so
/// no ordinary buffer ever holds it. Sent from a new unbound `AF_UNIX`/
/// `SOCK_DGRAM` socket, with `MSG_NOSIGNAL`.
public enum PasswordReply {
  /// Sends `+` and `secret` to `socketPath`.
  ///
  /// - Complexity: one `socket`, one `sendmsg`, two `mprotect` for the window.
  /// - Throws: ``AgentError`` with code `replyFailed` (the asker is gone, its
  ///   socket refuses) or `socketPathTooLong`.
  public static func answer(
    _ secret: borrowing SecureBuffer, to socketPath: String
  ) throws(AgentError) {
    let result = secret.withUnsafeBytes { bytes in
      AgentSystem.sendDatagram(prefix: UInt8(ascii: "+"), body: bytes, to: socketPath)
    }
    if case .failure(let error) = result { throw error }
  }

  /// Sends `-`: the user declined to answer.
  ///
  /// - Throws: ``AgentError`` as ``answer(_:to:)``.
  public static func cancel(to socketPath: String) throws(AgentError) {
    if case .failure(let error) = AgentSystem.sendDatagram(
      prefix: UInt8(ascii: "-"), body: UnsafeRawBufferPointer(start: nil, count: 0),
      to: socketPath)
    {
      throw error
    }
  }
}
