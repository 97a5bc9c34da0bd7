import SecureMemory
import Testing

/// The client's reading end of an Assuan connection, reading into secure memory
/// so a passphrase on its way to the test leaves no copy in the test either.
struct SecureLineReader: ~Copyable {
  let descriptor: Int32
  var buffer: SecureBuffer

  init(descriptor: Int32) throws {
    self.descriptor = descriptor
    buffer = try SecureBuffer(capacity: 4096)
  }

  /// Calls `body` with the next line, without its LF, inside the buffer's read
  /// window; then removes the line, zeroing the bytes it leaves.
  mutating func withNextLine<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws -> Result {
    while true {
      let lineFeed = buffer.withUnsafeBytes { $0.firstIndex(of: UInt8(ascii: "\n")) }
      if let lineFeed {
        defer { buffer.removeSubrange(0..<(lineFeed + 1)) }
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<lineFeed])) }
      }
      // The bound is for a peer that hangs, not a claim about its speed.
      let outcome = try buffer.read(from: descriptor, maximumCount: 4096, timeout: .seconds(60))
      try #require(outcome != .endOfFile, "the connection ended before a whole line")
      try #require(outcome != .timedOut, "no whole line within a minute")
    }
  }

  /// The next line as text, for lines that carry nothing secret.
  mutating func nextText() throws -> String {
    try withNextLine { String(decoding: $0, as: UTF8.self) }
  }

  /// Wipes whatever is buffered.
  mutating func wipe() { buffer.removeAll() }
}
