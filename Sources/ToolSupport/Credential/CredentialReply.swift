import CSystemShims
package import SecureMemory

/// The answer to git's `get`, built whole in secure memory and written to
/// git's pipe with one `write(2)` from there: `key=value` lines and a blank
/// line.
///
/// Every value is checked before it goes in: one that holds a CR, an LF or a
/// NUL would be split or cut by the protocol, and is refused, so that
/// nothing is written at all. The secret values are copied from their own
/// windows with the package's copy.
package struct CredentialReply: ~Copyable {
  private var bytes: SecureBuffer

  /// An empty answer in `storage`.
  package init(storage: SecureStorage) throws(CredentialError) {
    do { bytes = try SecureBuffer(capacity: 512, storage: storage) } catch {
      throw .secureMemory(error)
    }
  }

  /// Adds `key=text`.
  ///
  /// - Throws: ``CredentialError`` with code `lineBreak` when `text` holds a
  ///   CR, an LF or a NUL (`what` names it in the message).
  package mutating func append(_ key: String, text: String, what: String) throws(CredentialError) {
    if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
      throw .lineBreak(in: what)
    }
    try append(text: key + "=" + text + "\n")
  }

  /// Adds `key=` and the bytes of `secret` (a window on a secure buffer).
  ///
  /// - Throws: ``CredentialError`` with code `lineBreak` when the bytes hold
  ///   a CR, an LF or a NUL, found with the package's `repne scasb`.
  package mutating func append(
    _ key: String, secret: UnsafeRawBufferPointer, what: String
  ) throws(CredentialError) {
    if let base = secret.baseAddress,
      [0x0A, 0x0D, 0].contains(where: {
        secretfield_find_byte(base, secret.count, $0) < secret.count
      })
    {
      throw .lineBreak(in: what)
    }
    try append(text: key + "=")
    try append(secret)
    try appendNewline()
  }

  /// Ends the answer with its blank line and writes it to `descriptor`.
  ///
  /// - Throws: ``CredentialError`` with code `writeFailed` (`EPIPE`: git is
  ///   gone).
  package consuming func write(to descriptor: Int32) throws(CredentialError) {
    try appendNewline()
    do {
      try bytes.write(to: descriptor)
    } catch {
      throw CredentialError(
        .writeFailed, "could not write the credential to git: \(error.description)")
    }
  }

  private mutating func append(_ raw: UnsafeRawBufferPointer) throws(CredentialError) {
    do { try bytes.append(raw) } catch { throw .secureMemory(error) }
  }

  /// Appends text that is not secret.
  private mutating func append(text: String) throws(CredentialError) {
    let utf8 = Array(text.utf8)
    do {
      try bytes.append(count: utf8.count) { (spare: UnsafeMutableRawBufferPointer) throws(Never) in
        spare.copyBytes(from: utf8)
      }
    } catch {
      switch error {
      case .memory(let failure): throw .secureMemory(failure)
      }
    }
  }

  private mutating func appendNewline() throws(CredentialError) {
    try withUnsafeBytes(of: UInt8(0x0A)) { newline throws(CredentialError) in try append(newline) }
  }
}
