public import SecureMemory

/// Collects what a prompt draws and writes it to the terminal in as few
/// `write(2)` calls as it can, keeping secret bytes out of its own buffer.
///
/// Text and escape sequences (nothing secret) gather in an ordinary buffer;
/// revealed text goes from secure memory straight to the terminal with
/// `SecureBuffer.write(to:range:)`, after what was gathered before it, so the
/// order on the screen is the order of the calls.
public struct ScreenWriter {
  /// The terminal's descriptor.
  public let descriptor: Int32
  private var pending: [UInt8] = []

  /// A writer to `descriptor` (a ``TerminalDevice``'s).
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// A writer to `terminal`.
  public init(terminal: borrowing TerminalDevice) {
    self.init(descriptor: terminal.descriptor)
  }

  /// How many bytes wait to be written.
  public var pendingCount: Int { pending.count }

  /// Gathers `text`: a prompt, mask glyphs, an escape sequence. Never a secret.
  public mutating func append(_ text: String) {
    pending.append(contentsOf: text.utf8)
  }

  /// Gathers a frame's text (``ScreenOutput/text``), never a secret: copied
  /// into the buffer, which keeps its capacity, so nothing is allocated once it
  /// has room for a frame.
  mutating func append(bytes: ArraySlice<UInt8>) {
    pending.append(contentsOf: bytes)
  }

  /// Writes what was gathered, then the bytes in `range` of `secret`, from inside
  /// a read window on it (`SecureBuffer.write(to:range:)`).
  ///
  /// - Throws: ``PromptError`` with code `writeFailed`.
  public mutating func appendSecret(
    _ secret: borrowing SecureBuffer, range: Range<Int>
  ) throws(PromptError) {
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
  /// - Throws: ``PromptError`` with code `writeFailed`.
  public mutating func appendRevealed(_ bytes: UnsafeRawBufferPointer) throws(PromptError) {
    try flush()
    if let failure = Platform.writeAll(descriptor, bytes) { throw .writeFailed(errno: failure) }
  }

  /// Writes what was gathered in one `write(2)` (more if the kernel takes less).
  ///
  /// - Throws: ``PromptError`` with code `writeFailed`; what was gathered is
  ///   dropped either way.
  public mutating func flush() throws(PromptError) {
    guard !pending.isEmpty else { return }
    defer { pending.removeAll(keepingCapacity: true) }
    let failure = pending.withUnsafeBytes { Platform.writeAll(descriptor, $0) }
    if let failure { throw .writeFailed(errno: failure) }
  }
}
