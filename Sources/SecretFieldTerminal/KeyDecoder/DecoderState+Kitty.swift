import SecretField
import SecureMemory

extension DecoderState {
  /// The event of a kitty protocol key press, with its text (if any) written
  /// into the payload.
  ///
  /// Shortcuts match with the lock bits (caps lock, num lock) masked off, so
  /// Ctrl+C cancels with caps lock on. Text comes from the third field, parsed
  /// and encoded as UTF-8 straight into secure memory; a key without that field
  /// and without modifiers gives its own code point.
  func kittyEvent(
    _ key: KittyKey, in front: UnsafeRawBufferPointer, payload: inout SecureBuffer
  ) throws(TerminalError) -> KeyEvent {
    let bits = key.modifierBits & ~ModifierBits.locks
    let withoutShift = bits & ~ModifierBits.shift
    let held = SequenceScanner.modifiers(ofBits: bits)
    switch key.code {
    case 13, KittyKeyCode.keypadEnter:
      return withoutShift == 0 ? .submit : .key(.enter, held)
    case 127, 8:
      if withoutShift == 0 { return .deleteBackward }
      if bits & (ModifierBits.control | ModifierBits.alt) != 0 { return .deleteWordBackward }
      return .key(.backspace, held)
    case 9:
      return bits == 0 ? .tab : .key(.tab, held)
    case 27:
      return bits == 0 ? .escape : .key(.escape, held)
    case 97...122 where bits == ModifierBits.control:
      return SequenceScanner.controlKey(UInt8(key.code - 96))
    case KittyKeyCode.functionKeys:
      return .key(.function(key.code - KittyKeyCode.functionKeys.lowerBound + 13), held)
    default:
      break
    }
    // A character with Ctrl, Alt or Super is a key, never text.
    if bits & (ModifierBits.control | ModifierBits.alt | ModifierBits.super) != 0,
      KittyText.isTextScalar(key.code), !KittyKeyCode.isFunctional(key.code),
      let scalar = Unicode.Scalar(UInt32(key.code))
    {
      return .key(.character(scalar), held)
    }
    guard withoutShift == 0 else { return .unknownSequence }
    if let text = key.text {
      return try Self.appendText(codePointsIn: text, of: front, to: &payload)
        ? .text : .invalidText
    }
    guard bits == 0, KittyText.isTextScalar(key.code), !KittyKeyCode.isFunctional(key.code) else {
      return .unknownSequence
    }
    let code = key.code
    do {
      try payload.append(count: KittyText.utf8Count(code)) { spare in
        KittyText.encode(code, into: spare, at: 0)
      }
    } catch {
      if case .memory(let error) = error { throw .secureMemory(error) }
    }
    return .text
  }

  /// Parses the decimal code points in `range` of `input` (`cp:cp:…`) and
  /// appends them as UTF-8 to the payload: measured in one pass, written
  /// straight into the payload's spare capacity in a second. Returns false,
  /// appending nothing, when any is not a text scalar.
  static func appendText(
    codePointsIn range: Range<Int>, of input: UnsafeRawBufferPointer,
    to payload: inout SecureBuffer
  ) throws(TerminalError) -> Bool {
    let total = KittyText.utf8Count(codePointsIn: range, of: input)
    guard let total else { return false }
    do {
      try payload.append(count: total) { spare in
        KittyText.encode(codePointsIn: range, of: input, into: spare)
      }
    } catch {
      if case .memory(let error) = error { throw .secureMemory(error) }
    }
    return true
  }
}
