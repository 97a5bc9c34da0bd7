/// The fields of a kitty key event. `code` is the key's Unicode code point: for
/// a text key it is the password's character, so the decoder handles it only in
/// locals it wipes off the stack after.
struct KittyKey: Equatable {
  var code: Int
  var modifiers: Int
  var eventType: Int
  /// Where the text field (`cp:cp:…`) lies in the input, if present.
  var text: Range<Int>?

  /// The modifier bits (the parameter minus one).
  var modifierBits: Int { max(0, modifiers - 1) }
}

/// Modifier bits of xterm and the kitty protocol (the parameter minus one).
enum ModifierBits {
  static let shift = 1
  static let alt = 2
  static let control = 4
  static let `super` = 8
  static let capsLock = 64
  static let numLock = 128
  static let locks = capsLock | numLock
}

/// Key codes of the kitty protocol that need a name.
enum KittyKeyCode {
  /// Keypad Enter.
  static let keypadEnter = 57414
  /// Functional keys (F13…, keypad, media, modifiers) live in the Private Use
  /// Area from here to the end of the plane's first PUA block.
  static let functionalKeys = 57344...63743

  static func isFunctional(_ code: Int) -> Bool { functionalKeys.contains(code) }

  /// F13 to F35 (F1 to F12, the arrows, Insert and the page keys come as
  /// their legacy sequences, `CSI 1 P` or `CSI 5 ~`, in the protocol too).
  static let functionKeys = 57376...57398
}
