/// An inotify watch on a ``RequestDirectory``: readable when a request was
/// written (`IN_CLOSE_WRITE`), renamed into place (`IN_MOVED_TO`, as systemd
/// writes them) or removed (`IN_DELETE`, `IN_MOVED_FROM`), so the agent
/// rescans then, and withdraws a prompt whose file went away.
///
/// `~Copyable`: one owner closes the descriptor.
public struct RequestWatch: ~Copyable {
  /// The inotify descriptor, for `poll`. Do not close it: the watch does.
  public let descriptor: Int32

  /// Starts watching `directory` (`inotify_init1`, `inotify_add_watch`).
  ///
  /// - Throws: ``AgentError`` with code `watchFailed` (the directory does
  ///   not exist, or inotify's limits are reached).
  public init(_ directory: RequestDirectory) throws(AgentError) {
    switch AgentSystem.watchDirectory(directory.path) {
    case .success(let opened): descriptor = opened
    case .failure(let error): throw error
    }
  }

  deinit { AgentSystem.close(descriptor) }

  /// Reads every event waiting, without blocking; true when there was one.
  /// The events themselves do not matter: the agent rescans.
  public func drain() -> Bool { AgentSystem.drainEvents(descriptor) }

  /// A check for a prompt's ``descriptor``-woken withdrawal: drains the
  /// watch's events (the descriptor is only lent, the watch keeps it), then
  /// says whether `pending`'s file is gone from `directory`.
  public func withdrawalCheck(
    for pending: PendingRequest, in directory: RequestDirectory
  ) -> () -> Bool {
    let descriptor = descriptor
    return {
      _ = AgentSystem.drainEvents(descriptor)
      return !directory.stillHolds(pending)
    }
  }

  /// Waits until something changed in the directory, or `timeout` passed
  /// (nil: without limit), or a signal came; true when something changed.
  /// Drains the events.
  public func waitForChange(timeout: Duration? = nil) -> Bool {
    let milliseconds: Int32 =
      timeout.map { duration in
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      } ?? -1
    guard AgentSystem.waitReadable(descriptor, timeoutMilliseconds: milliseconds) else {
      return false
    }
    return drain()
  }
}
