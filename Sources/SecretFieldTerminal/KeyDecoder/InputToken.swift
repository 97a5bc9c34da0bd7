/// What the bytes at the front of the decoder's input are, as the scanner found
/// them: a length to consume and what it means, never the bytes themselves.
enum InputToken: Equatable {
  /// An event with nothing more to it (a control key, a reply, an unknown
  /// sequence, invalid UTF-8).
  case event(KeyEvent, length: Int)
  /// A legacy key sequence (`CSI 1;5D`, `CSI 3~`) with its modifier parameter,
  /// which under the kitty protocol carries the lock bits.
  /// A release (event type 3) is reported so the decoder can skip it.
  case legacyKey(KeyEvent, modifiers: Int?, isRelease: Bool, length: Int)
  /// A run of text: printable ASCII and complete, valid UTF-8 characters.
  case text(length: Int)
  /// `CSI 200~`: a bracketed paste begins.
  case pasteStart(length: Int)
  /// A kitty keyboard protocol key event (`CSI code ; modifiers:event ; text u`).
  case kittyKey(KittyKey, length: Int)
  /// The front is the start of something that needs more bytes.
  case incomplete(Incomplete)

  /// What an incomplete front is, and so what it becomes if nothing follows in
  /// time.
  enum Incomplete: Equatable {
    /// A lone ESC: Esc, the key.
    case escape
    /// An escape sequence or string that has not ended.
    case sequence
    /// The first bytes of a UTF-8 character.
    case character
  }
}

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
