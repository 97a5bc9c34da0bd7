/// How a field shows its characters. A rendering choice only: changing it never
/// touches the text, the caret or the selection.
public enum ObfuscationMode: Sendable, Hashable {
  /// Every character is shown as the mask glyph.
  case hidden
  /// Every character is masked except the one just typed, which stays visible for
  /// `duration` (1.5 s by default, as on Android). A paste, a selection change, a
  /// caret move, focus loss, screen capture or the next keystroke hides it at once.
  case revealLastTyped(Duration = .seconds(1.5))
  /// Every character is shown as itself.
  case visible

  /// True for the modes that mask the content as a whole (`.hidden` and
  /// `.revealLastTyped`).
  public var isMasked: Bool { self != .visible }
}
