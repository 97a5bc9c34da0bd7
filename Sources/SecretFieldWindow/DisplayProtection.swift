/// What the display the dialog is on gives against the user's other
/// programs while the password is typed, and the line the dialog says it in.
///
/// X11 lets a client hold the keyboard (``KeyboardGrab``): while the dialog
/// holds it, no other window gets a key even when it takes the focus. It
/// cannot stop any client of the display from reading every key as an
/// XInput 2 raw event, which grabs do not affect. Wayland gives no client
/// the keys of another, and has no grabs: another window can take the focus,
/// and the compositor's own shortcuts act unless it grants the dialog's
/// request to inhibit them while it has focus
/// (`keyboard-shortcuts-inhibit-unstable-v1`, through
/// `gdk_toplevel_inhibit_system_shortcuts`).
enum DisplayProtection: Sendable, Hashable {
  /// Not known yet, or another kind of display.
  case unknown
  /// X11: whether the dialog holds the keyboard.
  case x11(keyboardHeld: Bool)
  /// Wayland: whether the compositor inhibits its shortcuts for the dialog
  /// now (it does only while the dialog has focus).
  case wayland(shortcutsInhibited: Bool)

  /// The line under the field, or nil for none.
  var statement: String? {
    switch self {
    case .unknown:
      nil
    case .x11(keyboardHeld: true):
      "X11: this window holds the keyboard, so other windows get none of these keys, but any "
        + "program on this display can still read every key as it is typed."
    case .x11(keyboardHeld: false):
      "The keyboard could not be grabbed: another program may be reading what you type, and "
        + "any program on this display can. Cancel unless you trust every program on this display."
    case .wayland(let shortcutsInhibited):
      "Wayland: no other program can read these keys, but another window can take the focus; "
        + (shortcutsInhibited
          ? "the compositor's shortcuts are off while this window has it."
          : "the compositor's shortcuts still act (it did not grant their inhibition).")
    }
  }

  /// Whether the line warns the user off: shown by every kind of dialog,
  /// where the others are the password's.
  var isWarning: Bool { self == .x11(keyboardHeld: false) }

  /// The name the tests' frame log gives it.
  var logName: String {
    switch self {
    case .unknown: "unknown"
    case .x11(keyboardHeld: true): "x11-keyboard-held"
    case .x11(keyboardHeld: false): "x11-keyboard-not-held"
    case .wayland(shortcutsInhibited: true): "wayland-shortcuts-inhibited"
    case .wayland(shortcutsInhibited: false): "wayland-shortcuts-not-inhibited"
    }
  }
}
