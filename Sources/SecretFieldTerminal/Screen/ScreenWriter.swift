package import SecretField
package import SecureMemory
import SystemCalls

/// Collects what a prompt draws and writes it to the terminal in as few
/// `write(2)` calls as it can, keeping secret bytes out of its own buffer.
///
/// Text and escape sequences (nothing secret) gather in an ordinary buffer;
/// revealed text goes from secure memory straight to the terminal with
/// `SecureBuffer.write(to:range:)`, after what was gathered before it, so the
/// order on the screen is the order of the calls.
package struct ScreenWriter {
  /// The terminal's descriptor.
  package let descriptor: Int32
  private var pending: [UInt8] = []

  /// A writer to `descriptor` (a ``TerminalDevice``'s).
  package init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// A writer to `terminal`.
  package init(terminal: borrowing TerminalDevice) {
    self.init(descriptor: terminal.descriptor)
  }

  /// How many bytes wait to be written.
  package var pendingCount: Int { pending.count }

  /// Gathers `text`: a prompt, mask glyphs, an escape sequence. Never a secret.
  package mutating func append(_ text: String) {
    pending.append(contentsOf: text.utf8)
  }

  /// Writes a frame from a ``PromptRenderer``: its text through the buffer,
  /// after what was gathered before, and its revealed ranges from one read
  /// window on `field` straight to the terminal (`write(2)` from secure
  /// memory), each in its place; one `write(2)` when nothing is revealed.
  ///
  /// The buffer keeps its capacity: once it has room for a frame, writing one
  /// allocates nothing.
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`.
  /// - Complexity: O(bytes written); two `mprotect` calls when a range is
  ///   revealed.
  package mutating func write(
    _ output: ScreenOutput, revealingFrom field: borrowing SecretFieldState
  ) throws(TerminalError) {
    guard !output.reveals.isEmpty else {
      pending.append(contentsOf: output.text)
      try flush()
      return
    }
    try field.withSecret { bytes throws(TerminalError) in
      var start = 0
      for index in output.reveals.indices {
        let reveal = output.reveals[index]
        pending.append(contentsOf: output.text[start..<reveal.offset])
        try appendRevealed(UnsafeRawBufferPointer(rebasing: bytes[reveal.utf8Range]))
        start = reveal.offset
      }
      pending.append(contentsOf: output.text[start...])
      try flush()
    }
  }

  /// Writes what was gathered, then the bytes in `range` of `secret`, from inside
  /// a read window on it (`SecureBuffer.write(to:range:)`).
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`.
  package mutating func appendSecret(
    _ secret: borrowing SecureBuffer, range: Range<Int>
  ) throws(TerminalError) {
    try flush()
    do {
      try secret.write(to: descriptor, range: range)
    } catch {
      throw .writeFailed(errno: Errno(error.errno ?? 0))
    }
  }

  /// Writes what was gathered, then `bytes`, which the caller lends from inside a
  /// read window on secure memory (`SecretFieldState/withSecret(_:)`):
  /// the revealed text goes from there to `write(2)` with no copy in between.
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`.
  package mutating func appendRevealed(_ bytes: UnsafeRawBufferPointer) throws(TerminalError) {
    try flush()
    if let failure = Platform.writeAll(descriptor, bytes) { throw .writeFailed(errno: failure) }
  }

  /// Writes what was gathered in one `write(2)` (more if the kernel takes less).
  ///
  /// - Throws: ``TerminalError`` with code `writeFailed`; what was gathered is
  ///   dropped either way.
  package mutating func flush() throws(TerminalError) {
    guard !pending.isEmpty else { return }
    defer { pending.removeAll(keepingCapacity: true) }
    let failure = pending.withUnsafeBytes { Platform.writeAll(descriptor, $0) }
    if let failure { throw .writeFailed(errno: failure) }
  }
}
