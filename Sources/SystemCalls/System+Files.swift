import CSystemShims
import Glibc

extension System {
  /// Opens `path` for reading, closed on `exec`, never as a controlling
  /// terminal; with `nonBlocking`, a FIFO without a writer opens at once.
  package static func openForReading(
    _ path: String, nonBlocking: Bool = false
  ) -> Result<Int32, Errno> {
    let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | (nonBlocking ? O_NONBLOCK : 0)
    let descriptor = open(path, flags)
    return descriptor >= 0 ? .success(descriptor) : .failure(.current)
  }

  /// `PROC_SUPER_MAGIC`, the type of the `proc` file system.
  package static let processFileSystem = 0x9fa0

  /// The type of the file system `descriptor` is on (`fstatfs(2)`'s
  /// `f_type`, as ``processFileSystem``), or nil when it cannot be had.
  package static func fileSystemType(_ descriptor: Int32) -> Int? {
    let type = secretfield_file_system_type(descriptor)
    return type >= 0 ? type : nil
  }

  /// The type of the file system `path` is on (`statfs(2)`), or nil.
  package static func fileSystemType(ofPath path: String) -> Int? {
    let type = secretfield_file_system_type_of_path(path)
    return type >= 0 ? type : nil
  }

  /// Opens `name` in the directory open at `directory` for its identity
  /// alone (`O_PATH | O_NOFOLLOW | O_CLOEXEC`): a symbolic link is opened as
  /// itself, never followed, and nothing can be read or written through it.
  package static func openNode(_ name: String, inDirectory directory: Int32) -> Result<Int32, Errno>
  {
    let descriptor = secretfield_open_node(directory, name)
    return descriptor >= 0 ? .success(descriptor) : .failure(.current)
  }

  /// Reads `descriptor` to its end: at most `limit` bytes, for what holds
  /// nothing secret (a `/proc` file, a request, a hash). More than `limit` is
  /// ``Errno/fileTooBig``, or with `truncating` the first `limit` bytes.
  package static func readAll(
    _ descriptor: Int32, limit: Int, truncating: Bool = false
  ) -> Result<[UInt8], Errno> {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(max(limit + 1, 1), 16 * 1024))
    while true {
      let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(.current)
      }
      if got == 0 { return .success(bytes) }
      bytes += chunk[..<got]
      if bytes.count > limit {
        guard truncating else { return .failure(.fileTooBig) }
        return .success(Array(bytes.prefix(limit)))
      }
    }
  }

  /// The content of the file at `path`, as ``readAll(_:limit:truncating:)``
  /// reads it. For `/proc` files, whose size `stat` does not tell.
  package static func readFile(
    _ path: String, limit: Int, truncating: Bool = false
  ) -> Result<[UInt8], Errno> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return .failure(.current) }
    defer { close(descriptor) }
    return readAll(descriptor, limit: limit, truncating: truncating)
  }

  /// The names in the directory at `path` (`opendir`, `readdir`), without `.`
  /// and `..`.
  package static func directoryEntries(_ path: String) -> Result<[String], Errno> {
    guard let directory = opendir(path) else { return .failure(.current) }
    defer { closedir(directory) }
    return .success(names(in: directory, limit: .max).names)
  }

  /// The names in the directory open at `descriptor` (`fdopendir` on a
  /// duplicate, from its start), without `.` and `..`: at most `limit`, and how
  /// many there were in all.
  package static func directoryEntries(
    inDirectory descriptor: Int32, limit: Int
  ) -> Result<(names: [String], total: Int), Errno> {
    let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard duplicate >= 0 else { return .failure(.current) }
    guard let stream = fdopendir(duplicate) else {
      let failure = Errno.current
      close(duplicate)
      return .failure(failure)
    }
    defer { closedir(stream) }
    rewinddir(stream)
    return .success(names(in: stream, limit: limit))
  }

  private static func names(
    in stream: OpaquePointer, limit: Int
  ) -> (names: [String], total: Int) {
    var names: [String] = []
    var total = 0
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      total += 1
      if names.count < limit { names.append(name) }
    }
    return (names, total)
  }

  /// True when `path` names something that exists (`access(F_OK)`).
  package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Sets the access and modification times of `path` to now (`utimensat`),
  /// as `touch` does to a file that exists; does nothing when it does not.
  package static func touch(_ path: String) {
    _ = utimensat(AT_FDCWD, path, nil, 0)
  }
}
