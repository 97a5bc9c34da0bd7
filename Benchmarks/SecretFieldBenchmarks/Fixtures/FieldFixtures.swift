import SecretField

extension SecretFieldState {
  /// A masked field (the default policy) holding `text`, the caret at its end.
  ///
  /// - Precondition: `text` is valid, has no control character and fits `limits`.
  static func benchmarkField(holding text: [UInt8], limits: FieldLimits) throws -> SecretFieldState
  {
    var field = try SecretFieldState(limits: limits)
    text.withUnsafeBytes { bytes in
      do { try field.paste(bytes) } catch {
        preconditionFailure("benchmark field: the text was refused: \(error)")
      }
    }
    return field
  }
}
