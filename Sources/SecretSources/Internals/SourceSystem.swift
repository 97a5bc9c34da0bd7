import Glibc
import SystemCalls

/// The system calls only secret sources make: what `fstat` says of a
/// descriptor, and the environment block. The shared ones (opening, pipes,
/// spawning, waiting) are `System`'s.
enum SourceSystem {
  /// What `fstat` says of an open descriptor, as far as a secret source cares.
  struct FileKind {
    var isDirectory: Bool
    var isRegularFile: Bool
    var isFIFO: Bool
    var isTerminal: Bool
    /// The permission bits (`st_mode & 0o777`).
    var permissions: UInt32
    /// The owner's user ID (`st_uid`).
    var owner: UInt32
    /// Which file it is: the device and inode numbers.
    var identity: FileIdentity
    /// On the `proc` file system (`fstatfs`): a view of a process.
    var isProcessFile: Bool
  }

  /// A file's device and inode numbers, which tell one file from another.
  struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  /// What `lstat` says of a path, as far as a walk through it cares.
  struct Node {
    var isSymbolicLink: Bool
    /// The mode bits (`st_mode & 0o7777`), the sticky bit included.
    var mode: UInt32
    var owner: UInt32
    var identity: FileIdentity
  }

  /// `fstat` on `descriptor`, with `isatty` and `fstatfs`; the errno when it
  /// is not open.
  static func fileKind(_ descriptor: Int32) -> Result<FileKind, Errno> {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(.current) }
    let isProcess = System.fileSystemType(descriptor) == System.processFileSystem
    let type = status.st_mode & S_IFMT
    return .success(
      FileKind(
        isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG, isFIFO: type == S_IFIFO,
        isTerminal: isatty(descriptor) == 1, permissions: status.st_mode & 0o777,
        owner: status.st_uid,
        identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
        isProcessFile: isProcess))
  }

  /// `lstat` on `path`: the link itself when it is one.
  static func node(_ path: String) -> Result<Node, Errno> {
    var status = stat()
    guard lstat(path, &status) == 0 else { return .failure(.current) }
    return .success(
      Node(
        isSymbolicLink: status.st_mode & S_IFMT == S_IFLNK, mode: status.st_mode & 0o7777,
        owner: status.st_uid,
        identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))))
  }

  /// True when `path` is on the `proc` file system (`statfs`).
  static func isOnProcessFileSystem(_ path: String) -> Bool {
    System.fileSystemType(ofPath: path) == System.processFileSystem
  }

  /// What the symbolic link at `path` points to (`readlink`).
  static func linkTarget(_ path: String) -> Result<String, Errno> {
    var bytes = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = bytes.withUnsafeMutableBytes { buffer in
      readlink(path, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), buffer.count)
    }
    guard count >= 0 else { return .failure(.current) }
    guard count < bytes.count else { return .failure(Errno(ENAMETOOLONG)) }
    return .success(String(decoding: bytes[..<count], as: UTF8.self))
  }

  /// The working directory (`getcwd`), or nil when it is gone.
  static func workingDirectory() -> String? {
    var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&bytes, bytes.count) != nil else { return nil }
    return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// True when `descriptor` is a socket that keeps message boundaries
  /// (`SOCK_DGRAM` or `SOCK_SEQPACKET`, from `getsockopt(SO_TYPE)`): one
  /// `read(2)` there takes a whole message, and drops what does not fit.
  static func isMessageSocket(_ descriptor: Int32) -> Bool {
    var type: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else { return false }
    return type == Int32(SOCK_DGRAM.rawValue) || type == Int32(SOCK_SEQPACKET.rawValue)
  }

  /// True when `descriptor` was opened for writing only (`F_GETFL`), as the
  /// write end of a pipe is: nothing can ever be read from it.
  static func isWriteOnly(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFL)
    return flags >= 0 && flags & O_ACCMODE == O_WRONLY
  }

  /// This process's effective user ID: whose secrets it reads.
  static var effectiveUser: UInt32 { geteuid() }

  /// The bytes of the value of `name` where they lie in the environment block
  /// (`getenv`), writable so that they can be wiped in place; nil when unset.
  ///
  /// Not thread-safe against another thread changing the environment, as
  /// `getenv` is not.
  static func environmentValueBytes(_ name: String) -> UnsafeMutableRawBufferPointer? {
    guard let value = getenv(name) else { return nil }
    return UnsafeMutableRawBufferPointer(start: value, count: strlen(value))
  }

  /// The value bytes of every entry `name=...` of the environment block
  /// `environment` (a NULL-terminated array of `NAME=value` strings, as
  /// `environ`), where they lie, in the block's order: a block made by
  /// `execve` may hold one name twice, and `getenv` returns only the first.
  static func environmentValues(
    _ name: String, in environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> [UnsafeMutableRawBufferPointer] {
    guard let environment else { return [] }
    let key = Array(name.utf8) + [UInt8(ascii: "=")]
    var values: [UnsafeMutableRawBufferPointer] = []
    var index = 0
    while let entry = environment[index] {
      index += 1
      let raw = UnsafeMutableRawPointer(entry)
      var matches = true
      for offset in 0..<key.count
      where raw.load(fromByteOffset: offset, as: UInt8.self) != key[offset] {
        matches = false
        break
      }
      guard matches else { continue }
      let value = raw + key.count
      values.append(UnsafeMutableRawBufferPointer(start: value, count: strlen(value)))
    }
    return values
  }

  /// The process's environment block (`environ`).
  static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }

  /// Removes `name` from the environment (`unsetenv`), so no child inherits it.
  static func removeEnvironmentVariable(_ name: String) { _ = unsetenv(name) }
}
