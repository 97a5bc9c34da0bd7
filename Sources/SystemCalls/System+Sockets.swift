import Glibc

extension System {
  /// Whether a server accepts connections on the stream socket at `path`
  /// (`AF_UNIX`, `SOCK_STREAM`), or at the abstract name `path` (a NUL
  /// before it, as X servers listen too): connects, sends nothing, and
  /// closes at once. Returns nil when it connected, else the errno (`ENOENT`:
  /// no socket there; `ECONNREFUSED`: nobody listens on it; `ENAMETOOLONG`:
  /// a path `sockaddr_un` cannot hold).
  ///
  /// - Complexity: one `socket`, one `connect`, one `close`.
  package static func probeStreamSocket(_ path: String, abstract: Bool = false) -> Errno? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = (abstract ? [0] : []) + Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path) - 1
    guard pathBytes.count <= capacity, !pathBytes.dropFirst(abstract ? 1 : 0).contains(0) else {
      return Errno(ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { destination in
      for (index, byte) in pathBytes.enumerated() { destination[index] = byte }
    }
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return .current }
    defer { Glibc.close(descriptor) }
    let addressLength = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, addressLength)
      }
    }
    return connected == 0 ? nil : .current
  }
}
