import Glibc

extension System {
  /// A millisecond in attoseconds, `Duration`'s finest unit.
  private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

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
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - .now
        // Rounded up, so the wait does not end just before the deadline.
        let (seconds, attoseconds) = left.components
        let milliseconds =
          seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1)
          / attosecondsPerMillisecond
        timeout = left <= .zero ? 0 : Int32(clamping: milliseconds)
      }
      let ready = poll(&requests, nfds_t(requests.count), timeout)
      if ready >= 0 { return .success(requests.map { $0.revents != 0 }) }
      guard Glibc.errno == EINTR else { return .failure(.current) }
    }
  }
}
