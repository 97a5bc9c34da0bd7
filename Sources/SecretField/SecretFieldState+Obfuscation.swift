extension SecretFieldState {
  /// Switches between masked and visible, keeping the text, the caret and the
  /// selection exactly as they are.
  ///
  /// From a masked mode (`.hidden` or `.revealLastTyped`) it goes to `.visible`;
  /// from `.visible` it goes back to the masked mode the field had last, so a
  /// field that reveals the last typed character does so again after a round
  /// trip. Hides the last-typed character.
  ///
  /// - Throws: ``FieldError`` with code `FieldError.Code.revealRefused` when
  ///   revealing while captured under ``FieldPolicy/maskOnCapture``; the field is
  ///   then unchanged. Masking is never refused.
  public mutating func toggleReveal() throws(FieldError) {
    try setObfuscationMode(obfuscationMode == .visible ? maskedMode : .visible)
  }

  /// Sets how the text is shown, keeping the text, the caret and the selection.
  ///
  /// A masked mode set here is the one ``toggleReveal()`` returns to. Hides the
  /// last-typed character.
  ///
  /// - Throws: ``FieldError`` with code `FieldError.Code.revealRefused` for
  ///   `.visible` while captured under ``FieldPolicy/maskOnCapture``; the field is
  ///   then unchanged.
  public mutating func setObfuscationMode(_ mode: ObfuscationMode) throws(FieldError) {
    if mode == .visible && isMaskedForCapture { throw .revealRefused }
    if mode.isMasked { maskedMode = mode }
    obfuscationMode = mode
    lastTyped = nil
  }
}
