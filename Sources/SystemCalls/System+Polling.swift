import Glibc

extension System {
  /// Which of `descriptors` are readable (or hung up, or failed), after one
  /// `poll(2)` with no timeout; retried on `EINTR` (a signal's handler ran,
  /// and its relay's pipe is then readable for a caller that watches it).
  ///
  /// - Complexity: one `poll(2)` over `descriptors`.
  package static func waitReadable(_ descriptors: [Int32]) -> Result<[Bool], Errno> {
    var requests = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
      let ready = poll(&requests, nfds_t(requests.count), -1)
      if ready >= 0 { return .success(requests.map { $0.revents != 0 }) }
      guard Glibc.errno == EINTR else { return .failure(.current) }
    }
  }
}
