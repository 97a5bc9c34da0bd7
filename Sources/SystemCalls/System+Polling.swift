import Glibc

extension System {
  /// A millisecond in attoseconds, `Duration`'s finest unit.
  private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

  /// The `poll(2)` timeout that lasts `duration`: 0 once it is not positive,
  /// else the milliseconds rounded up (rounded down, the wait ends just
  /// before it and the caller polls again with 0).
  package static func pollTimeout(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds =
      seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    return Int32(clamping: max(0, milliseconds))
  }

  /// The `poll(2)` timeout that lasts until `deadline`: -1 for none, else
  /// ``pollTimeout(_:)`` of what is left.
  package static func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    return pollTimeout(deadline - .now)
  }

  /// Which of `descriptors` are readable (or hung up, or failed), after one
  /// `poll(2)` that lasts until `deadline` (nil: no timeout; none is when it
  /// passes); retried on `EINTR` (a signal's handler ran, and its relay's
  /// pipe is then readable for a caller that watches it).
  ///
  /// - Complexity: one `poll(2)` over `descriptors`.
  package static func waitReadable(
    _ descriptors: [Int32], until deadline: ContinuousClock.Instant? = nil
  ) -> Result<[Bool], Errno> {
    var requests = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
      let ready = poll(&requests, nfds_t(requests.count), pollTimeout(until: deadline))
      if ready >= 0 { return .success(requests.map { $0.revents != 0 }) }
      guard Glibc.errno == EINTR else { return .failure(.current) }
    }
  }
}
