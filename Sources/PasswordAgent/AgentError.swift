public import SecureMemory

/// A password agent's own operation failed: the request directory could not be
/// read or watched, or the reply could not be sent.
///
/// Compare by ``code``; show ``description``. A request that is wrong is not an
/// ``AgentError``: the scan skips it with a ``SkippedRequest``.
public struct AgentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What failed. Compare with the static members.
  public typealias Code = ErrorCode<AgentError>

  /// What failed.
  public let code: Code
  /// The `errno` the call reported, when there was a call.
  public let errno: Int32?

  init(_ code: Code, errno: Int32?) {
    self.code = code
    self.errno = errno
  }

  /// What failed, and the C library's words for the errno.
  public var description: String {
    let what =
      switch code {
      case .directoryUnreadable: "cannot read the request directory"
      case .watchFailed:
        "cannot watch the request directory (raise fs.inotify.max_user_instances if it is exhausted)"
      case .replyFailed: "cannot send the answer to the asking program's socket"
      case .socketReplaced:
        "its socket is gone or was replaced since the request was read; nothing was sent"
      case .replyNotRead:
        "the asking program does not read its socket; the answer was dropped, not sent"
      case .replyInterrupted:
        "a signal came while waiting for the asking program to read its socket; the answer "
          + "was dropped, not sent"
      default: "the socket path is longer than 107 bytes"
      }
    return errno.map { "\(what): \(AgentSystem.describe($0))" } ?? what
  }
}

extension ErrorCode where Failure == AgentError {
  /// The request directory could not be opened or listed.
  public static var directoryUnreadable: Self { Self() }
  /// The directory could not be watched with inotify.
  public static var watchFailed: Self { Self() }
  /// The reply datagram could not be sent (`socket` or `sendmsg` failed).
  public static var replyFailed: Self { Self() }
  /// The socket path does not fit a `sockaddr_un` (107 bytes).
  public static var socketPathTooLong: Self { Self() }
  /// The request's socket is gone, or is no longer the socket the scan
  /// checked (swapped for a link or another socket): nothing was sent.
  public static var socketReplaced: Self { Self() }
  /// The asker's socket did not make room for the answer before the
  /// deadline (it does not read): the answer was dropped.
  public static var replyNotRead: Self { Self() }
  /// The wait for room in the asker's socket was ended by the caller (its
  /// interruption descriptor became readable: a signal came): the answer
  /// was dropped.
  public static var replyInterrupted: Self { Self() }
}
