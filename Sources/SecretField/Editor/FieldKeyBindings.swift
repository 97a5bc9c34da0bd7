/// The one table of what a key does in a password field, for every front end.
///
/// | keys | command |
/// |---|---|
/// | Backspace; Ctrl+Backspace, Alt+Backspace, Ctrl+W | delete back a character; a word |
/// | Delete | delete forward |
/// | Ctrl+U; Ctrl+K | delete to the start; to the end |
/// | Left, Right (Ctrl or Alt: by word), Home, End; with Shift | move; extend the selection |
/// | Ctrl+A | select all |
/// | Ctrl+C, Ctrl+Insert | copy: refused |
/// | Ctrl+X, Shift+Delete | cut: refused, the text kept |
/// | Ctrl+V, Shift+Insert | paste from the clipboard: refused |
/// | Tab | show or mask the text |
/// | Enter; Esc | submit; cancel |
///
/// A terminal's Ctrl+A, Ctrl+C and Ctrl+D never reach this table: the
/// terminal's key decoder reads them as readline does (the start of the line,
/// the interrupt, the end of input) and the terminal sends those commands
/// itself.
public enum FieldKeyBindings {
  /// What `key` does, or nil when it does nothing in the field.
  public static func command(for key: FieldKey) -> FieldCommand? {
    guard !key.modifiers.contains(.super) else { return nil }
    let control = key.modifiers.contains(.control)
    let alt = key.modifiers.contains(.alt)
    let shift = key.modifiers.contains(.shift)
    let byWord = control || alt
    switch key.name {
    case .backspace:
      return byWord ? .deleteWordBackward : .deleteBackward
    case .delete:
      if shift && !byWord { return .cut }
      return byWord ? nil : .deleteForward
    case .insert:
      if control && !shift { return .copy }
      if shift && !control { return .pasteFromClipboard }
      return nil
    case .left: return .move(byWord ? .wordLeft : .left, extendingSelection: shift)
    case .right: return .move(byWord ? .wordRight : .right, extendingSelection: shift)
    case .home: return .move(.start, extendingSelection: shift)
    case .end: return .move(.end, extendingSelection: shift)
    case .up, .down, .pageUp, .pageDown, .function: return nil
    case .tab: return key.modifiers.isEmpty ? .toggleReveal : nil
    case .enter: return .submit
    case .escape: return key.modifiers.isEmpty ? .cancel(.escape) : nil
    case .character(let scalar):
      guard control, !alt else { return nil }
      switch scalar {
      case "a": return .selectAll
      case "u": return .deleteToStart
      case "k": return .deleteToEnd
      case "w": return .deleteWordBackward
      case "c": return .copy
      case "x": return .cut
      case "v": return .pasteFromClipboard
      default: return nil
      }
    }
  }
}
