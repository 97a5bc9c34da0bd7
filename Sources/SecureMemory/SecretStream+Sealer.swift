extension SecretStream {
  /// Seals a stream under one key, chunk by chunk.
  ///
  /// ```swift
  /// var sealer = try SecretStream.Sealer(key: key)
  /// write(sealer.header)                                    // 24 bytes, not secret
  /// write(sealer.seal(chunk, isFinal: false))               // chunk: a SecureBuffer
  /// write(sealer.seal(lastChunk, isFinal: true))
  /// ```
  ///
  /// Each chunk's ciphertext is its plaintext's length plus
  /// ``SecretStream/chunkOverhead``, and is not secret. Sealing after the final
  /// chunk is a programmer error and traps.
  public struct Sealer: ~Copyable, Sendable {
    /// The stream's header: random, not secret, stored before the first chunk.
    /// The ``Opener`` needs it.
    public let header: [UInt8]
    /// True once the final chunk has been sealed.
    public private(set) var isFinished = false
    private var state: SecureBuffer

    /// Starts a stream under `key`, with a fresh random header.
    ///
    /// Wraps `crypto_secretstream_xchacha20poly1305_init_push`, called inside a
    /// read window on `key` and a write window on the state's secure memory.
    ///
    /// - Throws: ``SecretStreamError`` with code `invalidKey` when `key` does not
    ///   hold ``SecretStream/keyByteCount`` bytes, `secureMemoryFailed` when the
    ///   state's buffer cannot be had.
    /// - Complexity: one ``SecureBuffer`` allocation (about 25 µs).
    public init(key: borrowing SecureBuffer) throws(SecretStreamError) {
      try SecretStream.checkKey(key)
      var state = try SecretStream.makeState()
      var header = [UInt8](repeating: 0, count: SecretStream.headerByteCount)
      let grown = key.withUnsafeBytes { (key) -> AppendError<Never>? in
        do throws(AppendError<Never>) {
          try state.append(count: Sodium.streamStateByteCount) { state in
            header.withUnsafeMutableBytes { header in
              Sodium.startSealing(state: state, header: header, key: key)
            }
          }
          return nil
        } catch {
          return error
        }
      }
      wipeStack()
      if case .memory(let error) = grown { throw .secureMemoryFailed(error) }
      self.header = header
      self.state = state
    }

    /// Seals the bytes of `plaintext` in `range` (all of them by default) as
    /// the next chunk; `isFinal` marks the last.
    ///
    /// Wraps `crypto_secretstream_xchacha20poly1305_push`, called inside a read
    /// window on `plaintext` and a write window on the state; the stack below is
    /// wiped afterwards. An empty chunk is allowed (a final one after a stream
    /// whose length was a multiple of the chunk size, say). A range seals a
    /// chunk of a larger buffer without copying it out first.
    ///
    /// - Precondition: the final chunk has not been sealed yet; `range` lies
    ///   within `plaintext.count`.
    /// - Complexity: O(length); two `mprotect` pairs.
    public mutating func seal(
      _ plaintext: borrowing SecureBuffer, range: Range<Int>? = nil, isFinal: Bool
    ) -> [UInt8] {
      let range = plaintext.checkedRange(range)
      return plaintext.withUnsafeBytes {
        seal(message: UnsafeRawBufferPointer(rebasing: $0[range]), isFinal: isFinal)
      }
    }

    /// Seals the bytes of `plaintext` in `range` (all of them by default) as
    /// the next chunk into `chunk`, which is resized to the chunk's length
    /// and otherwise reused: a loop that writes each chunk out before sealing
    /// the next allocates nothing.
    ///
    /// - Precondition: as ``seal(_:range:isFinal:)``.
    /// - Complexity: O(length); two `mprotect` pairs.
    public mutating func seal(
      _ plaintext: borrowing SecureBuffer, range: Range<Int>? = nil, isFinal: Bool,
      into chunk: inout [UInt8]
    ) {
      let range = plaintext.checkedRange(range)
      let count = range.count + SecretStream.chunkOverhead
      if chunk.count < count {
        chunk.append(contentsOf: repeatElement(0, count: count - chunk.count))
      } else if chunk.count > count {
        chunk.removeLast(chunk.count - count)
      }
      plaintext.withUnsafeBytes { plaintext in
        chunk.withUnsafeMutableBytes { chunk in
          seal(
            message: UnsafeRawBufferPointer(rebasing: plaintext[range]), isFinal: isFinal,
            into: chunk)
        }
      }
      wipeStack()
    }

    /// Seals bytes that are not secret (a file's own non-secret part, a test
    /// vector) as the next chunk; `isFinal` marks the last.
    ///
    /// - Precondition: the final chunk has not been sealed yet.
    public mutating func seal(nonSecretBytes bytes: UnsafeRawBufferPointer, isFinal: Bool)
      -> [UInt8]
    {
      seal(message: bytes, isFinal: isFinal)
    }

    private mutating func seal(message: UnsafeRawBufferPointer, isFinal: Bool) -> [UInt8] {
      let count = message.count + SecretStream.chunkOverhead
      let chunk = [UInt8](unsafeUninitializedCapacity: count) { chunk, initialized in
        seal(message: message, isFinal: isFinal, into: UnsafeMutableRawBufferPointer(chunk))
        initialized = count
      }
      wipeStack()
      return chunk
    }

    /// Seals `message` into `chunk`, which has exactly its sealed length.
    private mutating func seal(
      message: UnsafeRawBufferPointer, isFinal: Bool, into chunk: UnsafeMutableRawBufferPointer
    ) {
      precondition(!isFinished, "SecretStream.Sealer: a chunk sealed after the final one")
      state.withUnsafeMutableBytes { state in
        Sodium.seal(state: state, chunk: chunk, message: message, isFinal: isFinal)
      }
      isFinished = isFinal
    }
  }
}
