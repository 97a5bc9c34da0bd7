import SecureMemory

extension SecretFieldState {
  /// Hands the selected bytes to `body`, for the host to put on a clipboard,
  /// unless the policy forbids it.
  ///
  /// The bytes are readable only while `body` runs; what the host's clipboard
  /// does with a copy is outside the field's control.
  ///
  /// - Throws: ``FieldError`` with code `FieldError.Code.copyRefused` under
  ///   ``FieldPolicy/noCopy``; `body` is not called.
  public func copy<Result: ~Copyable>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(FieldError) -> Result {
    guard !policy.contains(.noCopy) else { throw .copyRefused }
    return withSelectedBytes(body)
  }

  /// Hands the selected bytes to `body`, then deletes them, unless the policy
  /// forbids it.
  ///
  /// - Throws: ``FieldError`` with code `FieldError.Code.cutRefused` under
  ///   ``FieldPolicy/noCut``; `body` is not called and nothing changes.
  public mutating func cut<Result: ~Copyable>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(FieldError) -> Result {
    guard !policy.contains(.noCut) else { throw .cutRefused }
    let result = withSelectedBytes(body)
    if !selection.isEmpty { deleteBackward() }
    return result
  }

  private func withSelectedBytes<Result: ~Copyable>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    let range = index.byteRange(of: selection)
    return text.withUnsafeBytes { bytes in
      body(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
  }
}
