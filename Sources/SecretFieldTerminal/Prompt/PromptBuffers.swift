import SecretField
import SecureMemory

/// The secure buffers a ``PasswordPrompt`` types into, made together.
enum PromptBuffers {
  /// Makes the decoder and the field of a prompt of `configuration` in one
  /// `SharedSecureRegion`: the field's text first, ending at the region's
  /// trailing guard page, then the decoder's input. A key that arrives in the
  /// input is copied into the field inside the input's one window, so typing
  /// costs one protection pair per key instead of one per buffer. The two
  /// hold the same secret, so neither is exposed by the other's window.
  ///
  /// - Throws: ``PromptError`` with code `secureMemoryFailed` when secure memory
  ///   cannot be had.
  static func make(
    configuration: PromptConfiguration, decoderConfiguration: KeyDecoder.Configuration,
    decoder: inout KeyDecoder?, field: inout SecretFieldState?
  ) throws(PromptError) {
    let region = try PromptEditor.makeSharedRegion(configuration: configuration)
    field = try PromptEditor.makeField(
      configuration: configuration, sharing: region,
      reservingCapacity: textCapacity(for: configuration.fieldLimits))
    decoder = try KeyDecoder(configuration: decoderConfiguration, sharing: region)
  }

  /// The room the field's text gets in the region: the field's usual
  /// reservation (`SecretFieldState.reservedByteCount(for:)`), less what would
  /// spill past whole pages when that is at most 1 KiB. The default 8 KiB and
  /// the input's 256 bytes would need two pages and 304 bytes; a third page
  /// costs every key's protection pair about 0.3 µs (a tenth of the pair,
  /// measured), so the text has 7,888 bytes' room instead, and only a
  /// password longer than that moves to a buffer of its own.
  static func textCapacity(for limits: FieldLimits) -> Int {
    let reserved = SecretFieldState.reservedByteCount(for: limits)
    let spill = SharedSecureRegion.bytesPastWholePages(
      holding: [reserved, KeyDecoder.inputCapacity])
    return spill <= 1024 && spill < reserved ? reserved - spill : reserved
  }
}
