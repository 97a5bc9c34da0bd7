import Foundation
import Glibc

/// Makes a private directory `/tmp/PREFIXXXXXXX` (`mkdtemp`, mode 700) and
/// returns its path, short as socket paths need (at most 107 bytes).
public func makeTemporaryDirectory(prefix: String = "sf-") throws -> String {
  var template = Array("/tmp/\(prefix)XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    throw HarnessError(what: "mkdtemp", errno: errno)
  }
  return String(cString: made)
}

/// A private directory under `/tmp` with a short path, removed with
/// everything in it when dropped.
public final class TemporaryDirectory {
  /// The directory's path.
  public let path: String

  /// Makes `/tmp/PREFIXXXXXXX` (``makeTemporaryDirectory(prefix:)``).
  public init(prefix: String = "sf-") throws {
    path = try makeTemporaryDirectory(prefix: prefix)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `text` to the file `name` in the directory, with `mode`, and
  /// returns its path.
  @discardableResult
  public func write(_ name: String, _ text: String, mode: UInt32 = 0o644) throws -> String {
    let file = path + "/" + name
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw HarnessError(what: "open \(file)", errno: errno) }
    defer { close(descriptor) }
    var text = text
    _ = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    return file
  }

  /// The content of the file `name`, or nil while it does not exist.
  public func read(_ name: String) -> String? {
    try? String(contentsOfFile: path + "/" + name, encoding: .utf8)
  }

  /// Waits until the file `name` exists, and returns its content; the
  /// limit guards against a file that never comes.
  public func waitForFile(_ name: String, within limit: Duration = .seconds(60)) throws -> String {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let content = read(name) { return content }
      var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
      nanosleep(&pause, nil)
    }
    throw HarnessError("\(path)/\(name) never appeared")
  }
}
