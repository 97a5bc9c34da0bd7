extension SecretStream {
  /// Opens a stream sealed by a ``Sealer`` (or by any program using
  /// `crypto_secretstream_xchacha20poly1305`), chunk by chunk, into secure
  /// memory.
  ///
  /// ```swift
  /// var opener = try SecretStream.Opener(key: key, header: header)
  /// var plaintext = try SecureBuffer()
  /// while let chunk = nextChunk() {
  ///   if try opener.open(chunk, into: &plaintext) { break }   // true: the final chunk
  /// }
  /// try opener.finish()                                       // throws truncated
  /// ```
  ///
  /// Only a chunk that authenticates adds to the plaintext: on any error the
  /// buffer holds the same bytes, and the same count, as before the call.
  public struct Opener: ~Copyable, Sendable {
    /// True once the final chunk has been opened.
    public private(set) var sawFinalChunk = false
    private var state: SecureBuffer

    /// Starts opening the stream that `header` begins, under `key`.
    ///
    /// Wraps `crypto_secretstream_xchacha20poly1305_init_pull`, called inside a
    /// read window on `key` and a write window on the state's secure memory. A
    /// wrong key is not detected here but at the first chunk, which does not
    /// authenticate.
    ///
    /// - Throws: ``SecretStreamError`` with code `invalidKey` when `key` does not
    ///   hold ``SecretStream/keyByteCount`` bytes, `invalidHeader` when `header`
    ///   does not have ``SecretStream/headerByteCount`` bytes or libsodium
    ///   rejects it, `secureMemoryFailed` when the state's buffer cannot be had.
    public init(key: borrowing SecureBuffer, header: [UInt8]) throws(SecretStreamError) {
      try SecretStream.checkKey(key)
      guard header.count == SecretStream.headerByteCount else {
        throw .invalidHeader(count: header.count)
      }
      var state = try SecretStream.makeState()
      let outcome: Result<Void, AppendError<SecretStreamError>> = key.withUnsafeBytes { key in
        do throws(AppendError<SecretStreamError>) {
          try state.append(count: Sodium.streamStateByteCount) {
            (state) throws(SecretStreamError) in
            let accepted = header.withUnsafeBytes { header in
              Sodium.startOpening(state: state, header: header, key: key)
            }
            if !accepted { throw .invalidHeader(count: header.count) }
          }
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      wipeStack()
      switch outcome {
      case .success: self.state = state
      case .failure(.memory(let error)): throw .secureMemoryFailed(error)
      case .failure(.body(let error)): throw error
      }
    }

    /// Opens `ciphertext`, the next chunk, and appends its plaintext to
    /// `plaintext`. Returns true when it was the final chunk.
    ///
    /// Wraps `crypto_secretstream_xchacha20poly1305_pull`, which writes the
    /// plaintext straight into `plaintext`'s spare capacity, inside a write
    /// window, only once the chunk has authenticated; the count then grows by
    /// `ciphertext.count - SecretStream.chunkOverhead`. The stack below is wiped
    /// afterwards.
    ///
    /// - Throws: ``SecretStreamError`` with code `chunkNotAuthenticated` when the
    ///   chunk was changed, is out of order, belongs to another stream or was
    ///   sealed under another key (libsodium cannot tell these apart), or is
    ///   shorter than ``SecretStream/chunkOverhead``; `dataAfterFinalChunk` when
    ///   the final chunk was already opened; `secureMemoryFailed` when
    ///   `plaintext` cannot grow. `plaintext` then holds exactly what it held
    ///   (its capacity may have grown), and the opener can go on with another
    ///   chunk.
    /// - Complexity: O(`ciphertext.count`); two `mprotect` pairs, plus a growth
    ///   of `plaintext` when its capacity is short (reserve it up front).
    public mutating func open(
      _ ciphertext: UnsafeRawBufferPointer, into plaintext: inout SecureBuffer
    ) throws(SecretStreamError) -> Bool {
      guard !sawFinalChunk else { throw .dataAfterFinalChunk() }
      guard ciphertext.count >= SecretStream.chunkOverhead else {
        throw .chunkNotAuthenticated()
      }
      var opened = Sodium.OpenedChunk.message
      do throws(AppendError<SecretStreamError>) {
        try plaintext.append(count: ciphertext.count - SecretStream.chunkOverhead) {
          (message) throws(SecretStreamError) in
          let result = state.withUnsafeMutableBytes { state in
            Sodium.open(state: state, message: message, chunk: ciphertext)
          }
          guard let result else { throw .chunkNotAuthenticated() }
          opened = result
        }
      } catch {
        wipeStack()
        switch error {
        case .memory(let error): throw .secureMemoryFailed(error)
        case .body(let error): throw error
        }
      }
      wipeStack()
      sawFinalChunk = opened == .final
      return sawFinalChunk
    }

    /// Opens `ciphertext`, the next chunk, as the variant that takes
    /// an `UnsafeRawBufferPointer` does.
    public mutating func open(
      _ ciphertext: [UInt8], into plaintext: inout SecureBuffer
    ) throws(SecretStreamError) -> Bool {
      // Array's `withUnsafeBytes` rethrows untyped errors: carry the typed one out.
      let outcome = ciphertext.withUnsafeBytes { chunk in
        Result { () throws(SecretStreamError) in try open(chunk, into: &plaintext) }
      }
      return try outcome.get()
    }

    /// Ends the stream once its chunks have been read: throws when the final
    /// chunk never came.
    ///
    /// Call it when the input ends. A stream cut short at a chunk boundary
    /// opens chunk by chunk without error; only the missing final tag tells.
    /// It borrows the opener (it only reads whether the final chunk came), so
    /// it works on an opener held anywhere, top-level code included.
    ///
    /// - Throws: ``SecretStreamError`` with code `truncated` when no chunk opened
    ///   so far was the final one.
    public func finish() throws(SecretStreamError) {
      guard sawFinalChunk else { throw .truncated() }
    }
  }
}
