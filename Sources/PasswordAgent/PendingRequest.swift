/// A request found in the directory and checked: its file, when it was
/// written, and what it asks.
public struct PendingRequest: Sendable, Hashable {
  /// The file's name, as `ask.XBBVLc`.
  public let fileName: String
  /// What it asks.
  public let request: PasswordRequest
  /// When the file was last written (seconds and nanoseconds since the
  /// epoch), which orders requests oldest first.
  public let writtenAt: (seconds: Int, nanoseconds: Int)
  /// The file's identity, so a file removed and another written under the
  /// same name is told apart.
  let device: UInt64
  let inode: UInt64
  /// The identity of the socket the scan checked, which the answer must go
  /// to (``RequestDirectory/connect(to:)``): its device and inode, and when
  /// its status last changed, since a socket made after this one was removed
  /// may get its inode number.
  let socketDevice: UInt64
  let socketInode: UInt64
  let socketChanged: (seconds: Int, nanoseconds: Int)

  init(
    fileName: String, request: PasswordRequest, status: AgentSystem.FileStatus,
    socket: AgentSystem.FileStatus
  ) {
    self.fileName = fileName
    self.request = request
    writtenAt = (status.modifiedSeconds, status.modifiedNanoseconds)
    device = status.device
    inode = status.inode
    socketDevice = socket.device
    socketInode = socket.inode
    socketChanged = (socket.changedSeconds, socket.changedNanoseconds)
  }

  /// Oldest first; files written in the same nanosecond by name.
  public static func isOlder(_ left: PendingRequest, than right: PendingRequest) -> Bool {
    if left.writtenAt != right.writtenAt { return left.writtenAt < right.writtenAt }
    return left.fileName < right.fileName
  }

  /// Two pendings are the same when they are the same file with the same
  /// request.
  public static func == (left: PendingRequest, right: PendingRequest) -> Bool {
    left.fileName == right.fileName && left.device == right.device
      && left.inode == right.inode && left.writtenAt == right.writtenAt
      && left.request == right.request && left.socketDevice == right.socketDevice
      && left.socketInode == right.socketInode && left.socketChanged == right.socketChanged
  }

  /// Hashes the file's name and identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(fileName)
    hasher.combine(inode)
  }
}
