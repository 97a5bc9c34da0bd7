import SecretField
import SecureMemory

extension SecretFieldState {
  /// A masked field (the default policy) holding `text`, the caret at its end,
  /// in `storage`: sodium memory unless asked, as the field figures have
  /// always measured it against a protection pair; `_sealed` figures ask for
  /// sealed storage, the field's default.
  ///
  /// - Precondition: `text` is valid, has no control character and fits `limits`.
  static func benchmarkField(
    holding text: [UInt8], limits: FieldLimits, storage: SecureStorage = .sodium
  ) throws -> SecretFieldState {
    var field = try SecretFieldState(limits: limits, storage: storage)
    text.withUnsafeBytes { bytes in
      do { try field.paste(bytes) } catch {
        preconditionFailure("benchmark field: the text was refused: \(error)")
      }
    }
    return field
  }
}
