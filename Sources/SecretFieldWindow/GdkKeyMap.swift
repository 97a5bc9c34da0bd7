internal import CGtk
import SecretField

/// The window's table from GDK's key events to the field: a key value and the
/// modifiers held become a ``FieldKey``, and the bindings every front end
/// shares (``FieldKeyBindings``) say what it does. A key that is neither
/// there nor held with Ctrl or Alt types its character.
enum GdkKeyMap {
  /// The key `keyval` with `state`'s modifiers, as the field's bindings name
  /// keys; nil for a key they do not name (a letter without Ctrl or Alt, a
  /// modifier alone, a function key).
  static func fieldKey(_ keyval: guint, _ state: GdkModifierType) -> FieldKey? {
    var modifiers: FieldKey.Modifiers = []
    if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { modifiers.insert(.shift) }
    if state.rawValue & GDK_ALT_MASK.rawValue != 0 { modifiers.insert(.alt) }
    if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 { modifiers.insert(.control) }
    let name: FieldKey.Name
    switch Int32(bitPattern: keyval) {
    case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter: name = .enter
    case GDK_KEY_Escape: name = .escape
    case GDK_KEY_Tab, GDK_KEY_KP_Tab: name = .tab
    case GDK_KEY_BackSpace: name = .backspace
    case GDK_KEY_Delete, GDK_KEY_KP_Delete: name = .delete
    case GDK_KEY_Insert, GDK_KEY_KP_Insert: name = .insert
    case GDK_KEY_Left, GDK_KEY_KP_Left: name = .left
    case GDK_KEY_Right, GDK_KEY_KP_Right: name = .right
    case GDK_KEY_Up, GDK_KEY_KP_Up: name = .up
    case GDK_KEY_Down, GDK_KEY_KP_Down: name = .down
    case GDK_KEY_Home, GDK_KEY_KP_Home: name = .home
    case GDK_KEY_End, GDK_KEY_KP_End: name = .end
    default:
      // A character is a key only with Ctrl or Alt; alone it is typing.
      guard !modifiers.isDisjoint(with: [.control, .alt]),
        let scalar = Unicode.Scalar(gdk_keyval_to_unicode(gdk_keyval_to_lower(keyval))),
        scalar.isASCII, scalar.value > 0x20
      else { return nil }
      name = .character(scalar)
    }
    return FieldKey(name, modifiers)
  }

  /// Whether `state` holds Ctrl or Alt, with which a key never types.
  static func holdsShortcutModifier(_ state: GdkModifierType) -> Bool {
    state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) != 0
  }
}
