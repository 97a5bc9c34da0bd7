package import SecureMemory

/// The server end of an Assuan connection over two file descriptors: requests
/// come in on one, responses go out on the other.
///
/// Incoming bytes are read with `read(2)` straight into a `SecureBuffer` (an
/// inquiry's answer may be secret): each line is found, handed out and removed
/// inside one read-write window, the bytes it leaves zeroed. A secret going out
/// (the passphrase as `D` lines after `GETPIN`, the argument of
/// `INQUIRE QUALITY`) is built in a second `SecureBuffer`, written with
/// `write(2)` from its read window, and the buffer is wiped at once, so it
/// exists only in secure memory and the kernel's pipe. Every other response
/// (``AssuanResponse``: `OK`, `ERR`, `S`, `#`, `INQUIRE` and `GETINFO`'s `D`
/// lines) holds nothing secret and is written from ordinary memory
/// (`PublicOutput`), with no protection change.
///
/// So a request answered with `OK` costs two `mprotect` calls for its line,
/// and two more for each `read(2)` (one read takes in every line the client
/// has sent so far).
///
/// The connection does not own the descriptors: it neither closes them nor
/// changes their flags.
///
/// A class, so that a ``PassphraseQuality`` handed to the user interface in the
/// middle of `GETPIN` can send an inquiry on the same connection while the
/// session waits for the interface to return.
package final class AssuanConnection {
  /// The descriptor requests are read from (stdin for gpg-agent's pinentry).
  package let input: Int32
  /// The descriptor responses are written to (stdout for gpg-agent's pinentry).
  package let output: Int32

  /// Bytes read and not yet handed out as lines.
  var incoming: SecureBuffer
  /// The secret lines being written; empty between writes.
  var outgoing: SecureBuffer
  /// True while the rest of an overlong line is being thrown away.
  var isDiscardingLine = false
  /// True once the client closed its end.
  package internal(set) var isAtEndOfInput = false
  /// A failure an inquiry met while the user interface was in control; the
  /// session reports it when the interface returns.
  var deferredFailure: PinentryError?
  /// Counts `GETPIN` requests, so a ``PassphraseQuality`` can tell that its
  /// request is still the one running.
  var pinRequestGeneration = 0
  var isServingPinRequest = false
  /// How many inquiries' answers are still to be read to their end: a wait
  /// for one that ended early (the user interface had keys or a signal to
  /// serve) leaves it to be skipped before the next inquiry or command.
  var unansweredInquiries = 0

  /// Which memory the connection's buffers, and each inquiry's answer, are in.
  package let storage: SecureStorage

  /// How many bytes one `read(2)` asks for.
  static let readSize = 1024

  /// A connection reading requests from `input` and writing responses to
  /// `output`, its buffers in `storage` (sealed by default: see
  /// `SecureStorage.sealed`).
  ///
  /// - Throws: ``PinentryError`` when the two buffers cannot be had in secure
  ///   memory.
  package init(
    input: Int32, output: Int32, storage: SecureStorage = .sealed
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

  /// Sends a response that holds nothing secret, from ordinary memory.
  ///
  /// - Complexity: one `write(2)`; no protection change.
  /// - Throws: ``PinentryError`` when writing fails.
  package func send(_ response: AssuanResponse) throws(PinentryError) {
    let failure: SecureMemoryError? = response.encoded.withUnsafeBytes { raw in
      do throws(SecureMemoryError) {
        try PublicOutput.write(raw, to: output)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw .write(failure) }
  }

  /// Sends `secret` as `D` lines: escaped and split into a secure buffer,
  /// written, and wiped. Sends nothing for an empty secret.
  ///
  /// - Complexity: O(`secret.count`); one `write(2)` for all the lines.
  /// - Throws: ``PinentryError`` when writing fails or the lines do not fit in
  ///   secure memory.
  package func sendData(_ secret: borrowing SecureBuffer) throws(PinentryError) {
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
