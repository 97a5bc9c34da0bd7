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
    let region: SharedSecureRegion
    do {
      region = try SharedSecureRegion(
        holding: [
          SecretFieldState.reservedByteCount(for: configuration.fieldLimits),
          KeyDecoder.inputCapacity,
        ], storage: configuration.storage)
    } catch {
      throw .secureMemory(error)
    }
    field = try PromptEditor.makeField(configuration: configuration, sharing: region)
    decoder = try KeyDecoder(configuration: decoderConfiguration, sharing: region)
  }
}
