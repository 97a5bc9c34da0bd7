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
  /// An unfinished sequence too long to keep: these bytes are dropped, and
  /// what follows is swallowed in this state to the sequence's end.
  case overlong(SequenceScanner.Swallow?, length: Int)
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

extension InputToken {
  /// How many bytes a complete token starting with ESC or a C1 control takes;
  /// nil for one that is not complete, and for text and over-long ones.
  var sequenceLength: Int? {
    switch self {
    case .event(_, let length), .legacyKey(_, _, _, let length), .pasteStart(let length),
      .kittyKey(_, let length):
      length
    case .text, .overlong, .incomplete: nil
    }
  }
}
