/// A sealed stream: a message cut into chunks, each encrypted and
/// authenticated, in order, with the last one marked; libsodium's
/// `crypto_secretstream_xchacha20poly1305`.
///
/// ``Sealer`` starts a stream under a 32-byte key and gives the 24-byte
/// ``Sealer/header`` to store before the chunks; ``Opener`` takes the same key and
/// header and opens the chunks in the order they were sealed. A chunk that was
/// changed, moved, dropped or sealed under another key does not open; a stream
/// whose final chunk never came is reported by ``Opener/finish()``. The format is
/// libsodium's, so any program that uses `crypto_secretstream_xchacha20poly1305`
/// with no additional data reads what a ``Sealer`` writes, and the other way.
///
/// The key stays in the caller's ``SecureBuffer``; the stream's state (a key
/// derived from it, and the nonce) lives in a ``SecureBuffer`` of its own,
/// no-access between chunks. Plaintext is read from, and opened into, secure
/// memory only.
public enum SecretStream {
  /// A key's length: 32 bytes (`crypto_secretstream_xchacha20poly1305_KEYBYTES`).
  public static let keyByteCount = 32
  /// The header's length: 24 bytes
  /// (`crypto_secretstream_xchacha20poly1305_HEADERBYTES`).
  public static let headerByteCount = 24
  /// What sealing adds to each chunk: 17 bytes, a tag byte and a 16-byte
  /// Poly1305 authenticator (`crypto_secretstream_xchacha20poly1305_ABYTES`).
  public static let chunkOverhead = 17

  /// Checks libsodium's sizes against the ones this API promises, and allocates
  /// a buffer for the stream's state.
  static func makeState() throws(SecretStreamError) -> SecureBuffer {
    do {
      try Sodium.ensureInitialized()
      precondition(
        Sodium.streamKeyByteCount == keyByteCount && Sodium.streamHeaderByteCount == headerByteCount
          && Sodium.streamChunkOverhead == chunkOverhead,
        "libsodium's crypto_secretstream_xchacha20poly1305 sizes changed")
      return try SecureBuffer(capacity: Sodium.streamStateByteCount)
    } catch {
      throw .secureMemoryFailed(error)
    }
  }

  static func checkKey(_ key: borrowing SecureBuffer) throws(SecretStreamError) {
    guard key.count == keyByteCount else { throw .invalidKey(count: key.count) }
  }
}
