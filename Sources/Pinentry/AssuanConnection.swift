public import SecureMemory

/// The server end of an Assuan connection over two file descriptors: requests
/// come in on one, responses go out on the other.
///
/// Both directions pass through secure memory. Incoming bytes are read with
/// `read(2)` straight into a `SecureBuffer`; a line is handed out from inside
/// its read window and then removed, the bytes it leaves zeroed. Outgoing lines
/// are built in a second `SecureBuffer`, written with `write(2)` from its read
/// window, and the buffer is wiped at once. So a passphrase on its way out as a
/// `D` line, or as the argument of `INQUIRE QUALITY`, exists only in secure
/// memory and the kernel's pipe.
///
/// The connection does not own the descriptors: it neither closes them nor
/// changes their flags.
///
/// A class, so that a ``PassphraseQuality`` handed to the user interface in the
/// middle of `GETPIN` can send an inquiry on the same connection while the
/// session waits for the interface to return.
public final class AssuanConnection {
  /// The descriptor requests are read from (stdin for gpg-agent's pinentry).
  public let input: Int32
  /// The descriptor responses are written to (stdout for gpg-agent's pinentry).
  public let output: Int32

  /// Bytes read and not yet handed out as lines.
  var incoming: SecureBuffer
  /// The lines being written; empty between writes.
  var outgoing: SecureBuffer
  /// True while the rest of an overlong line is being thrown away.
  var isDiscardingLine = false
  /// True once the client closed its end.
  public internal(set) var isAtEndOfInput = false
  /// A failure an inquiry met while the user interface was in control; the
  /// session reports it when the interface returns.
  var deferredFailure: PinentryError?
  /// Counts `GETPIN` requests, so a ``PassphraseQuality`` can tell that its
  /// request is still the one running.
  var pinRequestGeneration = 0
  var isServingPinRequest = false

  /// Which memory the connection's buffers, and each inquiry's answer, are in.
  public let storage: SecureStorage

  /// How many bytes one `read(2)` asks for.
  static let readSize = 1024

  /// A connection reading requests from `input` and writing responses to
  /// `output`, its buffers in `storage` (sodium memory by default; the
  /// pinentry program asks for `.strongestAvailable`).
  ///
  /// - Throws: ``PinentryError`` when the two buffers cannot be had in secure
  ///   memory.
  public init(
    input: Int32, output: Int32, storage: SecureStorage = .sodium
  ) throws(PinentryError) {
    self.input = input
    self.output = output
    self.storage = storage
    do {
      incoming = try SecureBuffer(
        capacity: AssuanLine.maximumLength + Self.readSize, storage: storage)
      outgoing = try SecureBuffer(capacity: AssuanLine.maximumLength, storage: storage)
    } catch {
      throw .memory(error)
    }
  }

  /// Sends a response that holds nothing secret.
  ///
  /// - Throws: ``PinentryError`` when writing fails.
  public func send(_ response: AssuanResponse) throws(PinentryError) {
    let bytes = response.encoded
    try write { buffer throws(SecureMemoryError) in try AssuanEscaping.append(bytes, to: &buffer) }
  }

  /// Sends `secret` as `D` lines: escaped and split into a secure buffer,
  /// written, and wiped. Sends nothing for an empty secret.
  ///
  /// - Complexity: O(`secret.count`); one `write(2)` for all the lines.
  /// - Throws: ``PinentryError`` when writing fails or the lines do not fit in
  ///   secure memory.
  public func sendData(_ secret: borrowing SecureBuffer) throws(PinentryError) {
    guard !secret.isEmpty else { return }
    try write { buffer throws(SecureMemoryError) in
      try secret.withUnsafeBytes { raw throws(SecureMemoryError) in
        try AssuanEscaping.appendDataLines(raw, to: &buffer)
      }
    }
  }

  /// Builds lines in the outgoing buffer with `build`, writes them, and wipes
  /// the buffer whether or not that worked.
  func write(
    _ build: (inout SecureBuffer) throws(SecureMemoryError) -> Void
  ) throws(PinentryError) {
    defer { outgoing.removeAll() }
    do { try build(&outgoing) } catch { throw .memory(error) }
    do { try outgoing.write(to: output) } catch { throw .write(error) }
  }
}
