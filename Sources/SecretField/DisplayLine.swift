/// What a field shows at one moment, as data for a front end to draw.
///
/// A display line holds no text: a masked cell stands for the mask glyph, and a
/// revealed cell holds only the byte range of its character in the field's
/// secure memory. The front end draws a revealed cell from inside a window:
/// ``SecretFieldState/withRevealedBytes(of:_:)`` for one cell, or
/// ``SecretFieldState/withSecret(_:)`` and the ranges for a whole line.
public struct DisplayLine: Sendable, Hashable {
  /// One character of the field as it is shown.
  public struct Cell: Sendable, Hashable {
    /// How the character is shown.
    public enum Content: Sendable, Hashable {
      /// As the line's ``DisplayLine/maskGlyph``.
      case masked
      /// As itself: the character is the field's UTF-8 bytes in `utf8Range`.
      case revealed(utf8Range: Range<Int>)
    }

    /// The character's position in the field, from 0.
    public var index: Int
    /// How it is shown.
    public var content: Content

    /// True when the cell shows the character itself.
    public var isRevealed: Bool {
      if case .revealed = content { true } else { false }
    }
  }

  /// One cell per character, in order.
  public var cells: [Cell]
  /// The glyph every masked cell shows.
  public var maskGlyph: Character
  /// The caret, in characters (0 is before the first cell).
  public var caret: Int
  /// The selected cells.
  public var selection: Range<Int>
  /// True when the front end should show a caps-lock hint (caps lock is on and
  /// the field is focused).
  public var showsCapsLockHint: Bool
  /// True when the whole content is shown (``ObfuscationMode/visible``).
  public var isRevealed: Bool
  /// True when capture forces the line to be masked, for a front end that wants
  /// to say why the reveal toggle does nothing.
  public var isMaskedForCapture: Bool
  /// When the last-typed character stops showing, if one shows: render again then.
  public var revealEndsAt: ContinuousClock.Instant?
}
