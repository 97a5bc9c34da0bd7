import SecretField
import SecureMemory

/// The secure buffers a ``PasswordPrompt`` types into, made together.
enum PromptBuffers {
  /// Makes the decoder and the field of a prompt of `configuration` in one
  /// `SharedSecureRegion`: the field's text first, ending at the region's
  /// trailing guard page, then the decoder's input, where half a character
  /// waits for its rest. Keys land in the decoder's open landing area, not
  /// here; the input shares the field's page so that what waits costs no
  /// locked page of its own. The two hold the same secret, so neither is
  /// exposed by the other's window.
  ///
  /// - Throws: ``TerminalError`` with code `secureMemoryFailed` when secure memory
  ///   cannot be had.
  static func make(
    configuration: PromptConfiguration, decoderConfiguration: KeyDecoder.Configuration,
    decoder: inout KeyDecoder?, field: inout SecretFieldState?
  ) throws(TerminalError) {
    let region = try PromptField.makeSharedRegion(configuration: configuration)
    field = try PromptField.makeField(
      configuration: configuration, sharing: region,
      reservingCapacity: textCapacity(for: configuration.fieldLimits))
    decoder = try KeyDecoder(configuration: decoderConfiguration, sharing: region)
  }

  /// The room the field's text gets in the region: what fills the region's
  /// one page beside the input (3,792 bytes), or the field's usual
  /// reservation (`SecretFieldState.reservedByteCount(for:)`) when that is
  /// less. A window's protection pair costs about 0.3 µs a page (2.28 µs for
  /// one, 2.57 µs for two, measured), and every key pays it: a password longer
  /// than the room moves to a buffer of its own, and its keys pay two pairs.
  static func textCapacity(for limits: FieldLimits) -> Int {
    let reserved = SecretFieldState.reservedByteCount(for: limits)
    let onePage = SharedSecureRegion.largestCapacity(
      besides: [KeyDecoder.inputCapacity], inPages: 1)
    return min(reserved, onePage)
  }
}
