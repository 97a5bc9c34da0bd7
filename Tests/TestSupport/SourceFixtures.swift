import Foundation
import Glibc
public import SecureMemory

/// A private directory under `/tmp` for a test's files, removed when dropped.
public final class SourceDirectory {
  /// The directory's path.
  public let path: String

  /// Makes the directory (`mkdtemp`).
  public init() throws {
    path = try makeTemporaryDirectory(prefix: "sf-src-")
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `bytes` (test data, not a marker) to the file `name`, with `mode`.
  @discardableResult
  public func file(_ name: String, _ bytes: [UInt8], mode: UInt32 = 0o600) throws -> String {
    let path = self.path + "/" + name
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw FixtureError("open \(path): \(errno)") }
    defer { close(descriptor) }
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    // chmod after creation: the umask does not apply.
    guard chmod(path, mode) == 0 else { throw FixtureError("chmod \(path): \(errno)") }
    return path
  }

  /// Makes the FIFO `name` with `mode` (`mkfifo`, then `chmod`, so the umask
  /// does not apply).
  @discardableResult
  public func fifo(_ name: String, mode: UInt32 = 0o600) throws -> String {
    let path = self.path + "/" + name
    guard mkfifo(path, 0o600) == 0 else { throw FixtureError("mkfifo \(path): \(errno)") }
    guard chmod(path, mode) == 0 else { throw FixtureError("chmod \(path): \(errno)") }
    return path
  }

  /// Writes `marker` and a line feed to the file `name`, from secure memory, so
  /// that no ordinary memory of this process ever holds the plain marker.
  @discardableResult
  public func markerFile(
    _ name: String, _ marker: Marker, mode: UInt32 = 0o600, lineFeed: Bool = true
  ) throws -> String {
    let path = try file(name, [], mode: 0o600)
    let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    defer { close(descriptor) }
    writeMarker(marker, to: descriptor, lineFeed: lineFeed)
    guard chmod(path, mode) == 0 else { throw FixtureError("chmod \(path): \(errno)") }
    return path
  }
}

/// Writes `marker` and (unless `lineFeed` is false) a line feed to
/// `descriptor` from a secure buffer, where it is unmasked; the buffer is
/// wiped when this returns.
public func writeMarker(_ marker: Marker, to descriptor: Int32, lineFeed: Bool = true) {
  var buffer = try! SecureBuffer(capacity: marker.count + 1)
  marker.masked.withUnsafeBytes { try! buffer.append($0) }
  buffer.withUnsafeMutableBytes { marker.unmask(in: $0) }
  if lineFeed { try! buffer.append(count: 1) { $0[0] = 0x0A } }
  try! buffer.write(to: descriptor)
}

/// A pipe holding `bytes` (test data) and then closed for writing: its read
/// end, which the caller closes.
public func pipeHolding(_ bytes: [UInt8]) -> Int32 {
  var ends: [Int32] = [-1, -1]
  precondition(pipe(&ends) == 0)
  _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
  close(ends[1])
  return ends[0]
}

/// Puts `NAME=marker` into the environment with `putenv`, which keeps the
/// string it is given: the marker is unmasked in place in a `malloc` block
/// that the environment then owns, so no other copy exists.
public func putMarkerInEnvironment(_ name: String, _ marker: Marker) {
  let prefix = Array((name + "=").utf8)
  let block = malloc(prefix.count + marker.count + 1)!.assumingMemoryBound(to: UInt8.self)
  for (index, byte) in prefix.enumerated() { block[index] = byte }
  let value = UnsafeMutableRawBufferPointer(start: block + prefix.count, count: marker.count)
  marker.writeMasked(into: value)
  marker.unmask(in: value)
  block[prefix.count + marker.count] = 0
  precondition(putenv(UnsafeMutableRawPointer(block).assumingMemoryBound(to: CChar.self)) == 0)
}

/// True when `buffer` holds exactly `marker`.
public func holds(_ buffer: borrowing SecureBuffer, _ marker: Marker) -> Bool {
  buffer.withUnsafeBytes { marker.isEqual(to: $0) }
}

/// The buffer's bytes as a string: for test data that is not a marker.
public func text(_ buffer: borrowing SecureBuffer) -> String {
  buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

/// A fixture that could not be set up.
public struct FixtureError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// A failure that says `description`.
  public init(_ description: String) { self.description = description }
}

/// Test data (never a marker) in a secure buffer.
public func secureText(_ text: String) throws -> SecureBuffer {
  var buffer = try SecureBuffer(capacity: text.utf8.count)
  try Array(text.utf8).withUnsafeBytes { try buffer.append($0) }
  return buffer
}
