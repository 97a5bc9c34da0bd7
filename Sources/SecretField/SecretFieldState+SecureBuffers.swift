public import SecureMemory

extension SecretFieldState {
  /// Ends the field and hands its text over: the field's own buffer moves out,
  /// nothing is copied.
  ///
  /// The buffer holds exactly the password's UTF-8 bytes (``utf8Count`` of
  /// them) in the field's capacity (8 KiB by default), with the field's lock
  /// policy; the index of character boundaries, the only other trace of the
  /// text, goes with the field.
  ///
  /// ```swift
  /// let password = field.takeSecret()   // `field` is gone; `password` owns the bytes
  /// ```
  ///
  /// - Complexity: O(1): no allocation, no copy, no protection change.
  public consuming func takeSecret() -> SecureBuffer {
    text
  }

  /// Inserts text that is already in secure memory, replacing the selection;
  /// the caret ends after it.
  ///
  /// Reads `text` inside its read window and copies it into the field's buffer
  /// with the package's own copy: the bytes never pass through ordinary memory.
  /// Otherwise as ``insert(_:at:)-(UnsafeRawBufferPointer,_)``: one character typed at `now` shows under
  /// ``ObfuscationMode/revealLastTyped(_:)``; several are treated as a paste.
  ///
  /// - Throws: ``FieldError`` as ``insert(_:at:)-(UnsafeRawBufferPointer,_)`` does; the field is then
  ///   unchanged.
  public mutating func insert(
    _ text: borrowing SecureBuffer, at now: ContinuousClock.Instant? = nil
  ) throws(FieldError) {
    try text.withUnsafeBytes { bytes throws(FieldError) in try insert(bytes, at: now) }
  }
}
