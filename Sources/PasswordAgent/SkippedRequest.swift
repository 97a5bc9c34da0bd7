/// A file in the request directory that is not asked, and why.
///
/// Its ``description`` is one line for an operator (`--watch`, `--list`): the
/// file's name and the reason, with anything from outside escaped.
public struct SkippedRequest: Sendable, Hashable, CustomStringConvertible {
  /// Why a file is not asked.
  public enum Reason: Sendable, Hashable {
    /// A symbolic link (opened with `O_NOFOLLOW`).
    case symbolicLink
    /// Not a regular file (a FIFO, a directory, a device).
    case notRegularFile
    /// Gone between the listing and the reading.
    case vanished
    /// Could not be opened or read: the errno.
    case unreadable(errno: Int32)
    /// Not a request: what is wrong with it.
    case malformed(PasswordRequestError)
    /// `Socket=` names a path outside the request directory.
    case socketOutsideDirectory
    /// `Socket=` is longer than a socket address holds (107 bytes).
    case socketPathTooLong
    /// `Socket=` names nothing, or something that is not a socket (a
    /// symbolic link included).
    case socketNotASocket
    /// This user may not write to the socket.
    case socketNotWritable
    /// `NotAfter=` has passed.
    case expired
    /// The process of `PID=` is gone.
    case askerGone(processID: Int32)
    /// More `ask.*` files than one scan takes (``RequestDirectory/maximumRequestCount``).
    case tooMany
  }

  /// The file's name, as found (show ``description``, which escapes it).
  public let fileName: String
  /// Why it is skipped.
  public let reason: Reason

  /// A skipped file.
  public init(fileName: String, reason: Reason) {
    self.fileName = fileName
    self.reason = reason
  }

  /// The reason, in words.
  public var reasonText: String {
    switch reason {
    case .symbolicLink: "it is a symbolic link"
    case .notRegularFile: "it is not a regular file"
    case .vanished: "it was removed while being read"
    case .unreadable(let errno): "it cannot be read: \(AgentSystem.describe(errno))"
    case .malformed(let error): "it is not a request: \(error)"
    case .socketOutsideDirectory: "its Socket= is outside the request directory"
    case .socketPathTooLong:
      "its Socket= is longer than \(AgentSystem.maximumSocketPathCount) bytes"
    case .socketNotASocket: "its Socket= is not a socket"
    case .socketNotWritable: "this user may not write to its Socket="
    case .expired: "its NotAfter= time has passed"
    case .askerGone(let processID): "the asking process \(processID) is gone"
    case .tooMany:
      "more than \(RequestDirectory.maximumRequestCount) requests are waiting; it is left for later"
    }
  }

  /// `ask.XXXX: the reason`, the name escaped.
  public var description: String {
    "\(PasswordRequest.escaped(fileName)): \(reasonText)"
  }
}
