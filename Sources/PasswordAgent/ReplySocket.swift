public import SecureMemory
import SystemCalls

/// The asker's socket, connected when the request is taken up: the answer
/// goes on this descriptor, never to the path again.
///
/// ``RequestDirectory/connect(to:)`` opens the `Socket=` it checked in the
/// scan by name in the request directory without following a link
/// (`O_PATH | O_NOFOLLOW`), makes sure it is still the socket the scan
/// checked (its device and inode), and connects an unbound
/// `AF_UNIX`/`SOCK_DGRAM` socket to that very inode (through its
/// `/proc/self/fd` path). A socket swapped for a link, or for another socket,
/// while the prompt is on the screen then gets nothing: the datagram goes to
/// the socket that was checked, or nowhere.
///
/// Non-blocking: an asker whose socket does not read (its queue full) never
/// holds the agent. ``answer(_:until:interruptedBy:)`` waits for room until
/// its deadline, then gives up (`AgentError.Code.replyNotRead`), or until
/// the caller's interruption descriptor is readable (a signal came:
/// `AgentError.Code.replyInterrupted`); the answer is dropped, never
/// queued in ordinary memory.
///
/// `~Copyable`: one owner closes the descriptor.
public struct ReplySocket: ~Copyable {
  /// The connected socket.
  let descriptor: Int32

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// A socket connected to `path`, following it as `connect(2)` does: for a
  /// caller that checked nothing. The agent connects with
  /// ``RequestDirectory/connect(to:)`` instead.
  ///
  /// - Throws: ``AgentError`` with code `replyFailed` or `socketPathTooLong`.
  public init(connectingTo path: String) throws(AgentError) {
    switch AgentSystem.connectDatagram(toPath: path) {
    case .success(let connected): descriptor = connected
    case .failure(let error): throw error
    }
  }

  deinit { AgentSystem.close(descriptor) }

  /// How long an answer waits for room in the asker's queue by default.
  public static let defaultSendTimeout: Duration = .seconds(5)

  /// Sends `+` and `secret` as one datagram, gathered by `sendmsg(2)` from the
  /// `+` byte and the buffer's read window (no ordinary buffer holds it).
  ///
  /// - Parameters:
  ///   - secret: the answer.
  ///   - deadline: when to give up waiting for the asker to make room; nil
  ///     for ``defaultSendTimeout`` from now.
  ///   - interruption: a descriptor that becomes readable when the caller
  ///     has work that cannot wait, such as a signal relay's pipe: the wait
  ///     for room ends as soon as it is readable, and the answer is dropped.
  /// - Complexity: one `sendmsg`, a `poll` per wait for room, two `mprotect`
  ///   for each window.
  /// - Throws: ``AgentError`` with code `replyFailed` (the asker is gone, its
  ///   socket refuses), `replyNotRead` (no room before the deadline) or
  ///   `replyInterrupted` (`interruption` became readable first).
  public func answer(
    _ secret: borrowing SecureBuffer, until deadline: ContinuousClock.Instant? = nil,
    interruptedBy interruption: Int32? = nil
  ) throws(AgentError) {
    let deadline = deadline ?? .now + Self.defaultSendTimeout
    while true {
      let result = secret.withUnsafeBytes { bytes in
        AgentSystem.sendDatagram(prefix: UInt8(ascii: "+"), body: bytes, on: descriptor)
      }
      guard case .failure(let error) = result else { return }
      try waitForRoom(after: error, until: deadline, interruption: interruption)
    }
  }

  /// Sends `-`: the user declined to answer.
  ///
  /// - Throws: ``AgentError`` as ``answer(_:until:interruptedBy:)``.
  public func cancel(
    until deadline: ContinuousClock.Instant? = nil, interruptedBy interruption: Int32? = nil
  ) throws(AgentError) {
    let deadline = deadline ?? .now + Self.defaultSendTimeout
    while true {
      let result = AgentSystem.sendDatagram(
        prefix: UInt8(ascii: "-"), body: UnsafeRawBufferPointer(start: nil, count: 0),
        on: descriptor)
      guard case .failure(let error) = result else { return }
      try waitForRoom(after: error, until: deadline, interruption: interruption)
    }
  }

  /// Rethrows `error` unless it says the queue is full; then waits (`poll`
  /// for `POLLOUT`) until there is room, `deadline` passes or `interruption`
  /// is readable.
  private func waitForRoom(
    after error: AgentError, until deadline: ContinuousClock.Instant, interruption: Int32?
  ) throws(AgentError) {
    guard error.errno == AgentSystem.wouldBlock.code else { throw error }
    switch AgentSystem.waitWritable(
      descriptor, timeout: deadline - .now, interruption: interruption)
    {
    case .writable: return
    case .timedOut: throw AgentError(.replyNotRead, errno: nil)
    case .interrupted: throw AgentError(.replyInterrupted, errno: nil)
    }
  }
}
