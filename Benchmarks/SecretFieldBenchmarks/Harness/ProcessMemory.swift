import Glibc

/// What the kernel says this process has locked and mapped, read from `/proc`.
enum ProcessMemory {
  /// `VmLck` from `/proc/self/status`, in bytes: memory locked with `mlock`.
  static func lockedBytes() throws(ProcReadError) -> Int {
    let status = try contents(of: "/proc/self/status")
    for line in status.split(separator: UInt8(ascii: "\n")) where line.starts(with: "VmLck:".utf8) {
      let digits = line.drop { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        .prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
      guard let kibibytes = Int(String(decoding: digits, as: UTF8.self)) else { break }
      return kibibytes * 1024
    }
    throw ProcReadError(path: "/proc/self/status", errno: 0)
  }

  /// The number of lines in `/proc/self/maps`: one per memory mapping.
  static func mappingCount() throws(ProcReadError) -> Int {
    try contents(of: "/proc/self/maps").reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
  }

  /// The whole file, read with `read(2)` until end of file (`/proc` files report
  /// no size).
  private static func contents(of path: String) throws(ProcReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ProcReadError(path: path, errno: errno) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ProcReadError(path: path, errno: errno)
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }
}

/// A `/proc` file could not be read or did not hold what was expected.
struct ProcReadError: Error, CustomStringConvertible {
  /// The file.
  let path: String
  /// The `errno` from `open` or `read`; 0 when the file lacked the field.
  let errno: Int32

  var description: String {
    errno == 0
      ? "\(path) has no VmLck line"
      : "cannot read \(path): \(String(cString: strerror(errno)))"
  }
}
