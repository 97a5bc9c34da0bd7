internal import CGtk
import Glibc
import SecretField

extension PasswordDialog {
  /// Holds the keys for the dialog as the display allows: on X11 the
  /// keyboard is grabbed (``KeyboardGrab``); on Wayland the compositor is
  /// asked to inhibit its shortcuts while the dialog has focus, and its
  /// answer is followed. The line under the field says which held.
  func protectKeys(context: UnsafeMutableRawPointer) {
    guard let window else { return }
    switch KeyboardGrab.grab(window: window, keyboard: keyboard) {
    case .success(let grab):
      self.grab = grab
      protection = .x11(keyboardHeld: true)
    case .failure(.heldByAnotherClient), .failure(.windowNotViewable):
      protection = .x11(keyboardHeld: false)
    case .failure(.notX11):
      if let surface, Self.isWayland(gdk_display_get_default()) {
        Gtk.connect(
          UnsafeMutableRawPointer(surface), "notify::shortcuts-inhibited",
          Self.onShortcutsInhibitedChanged, context: context)
        Gtk.connect(
          UnsafeMutableRawPointer(surface), "notify::state", Self.onToplevelStateChanged,
          context: context)
        gdk_toplevel_inhibit_system_shortcuts(surface, nil)
        protection = .wayland(shortcutsInhibited: shortcutsInhibited)
        updateFocus()
      }
    }
    showProtection()
  }

  /// Lets the keyboard go, or the compositor's shortcuts.
  func releaseKeys() {
    grab?.release()
    grab = nil
    if case .wayland = protection, let surface {
      gdk_toplevel_restore_system_shortcuts(surface)
    }
  }

  /// Whether the compositor inhibits its shortcuts for the window now
  /// (`GdkToplevel:shortcuts-inhibited`).
  var shortcutsInhibited: Bool {
    guard let surface else { return false }
    var value = GValue()
    // G_TYPE_BOOLEAN, a macro Swift does not import: fundamental type 5.
    g_value_init(&value, GType(5 << 2))
    defer { g_value_unset(&value) }
    g_object_get_property(
      UnsafeMutableRawPointer(surface).assumingMemoryBound(to: GObject.self),
      "shortcuts-inhibited", &value)
    return g_value_get_boolean(&value) != 0
  }

  /// Follows the compositor's answer to the inhibition.
  func shortcutsInhibitionChanged() {
    guard case .wayland = protection else { return }
    protection = .wayland(shortcutsInhibited: shortcutsInhibited)
    showProtection()
  }

  /// Shows ``protection``'s line: under a password's field always, in any
  /// other dialog when it warns.
  func showProtection() {
    guard let protectionLabel else { return }
    let statement = kind == .password || protection.isWarning ? protection.statement : nil
    gtk_label_set_text(Gtk.opaque(protectionLabel), statement ?? "")
    gtk_widget_set_visible(protectionLabel, statement == nil ? 0 : 1)
    redraw()
  }

  /// Whether `display` is GDK's Wayland display, told by its type's name so
  /// that no Wayland header is needed.
  static func isWayland(_ display: OpaquePointer?) -> Bool {
    guard let display else { return false }
    let type = g_type_from_name("GdkWaylandDisplay")
    return type != 0
      && g_type_check_instance_is_a(
        UnsafeMutableRawPointer(display).assumingMemoryBound(to: GTypeInstance.self), type) != 0
  }

  // MARK: The tests' frame log

  /// Learns the window's surface, and, for the tests' frame log
  /// (``FrameLog``), follows each frame GDK paints.
  func watchFrames(context: UnsafeMutableRawPointer) {
    guard let window, let native = gtk_widget_get_native(window) else { return }
    surface = gtk_native_get_surface(native)
    guard FrameLog.isEnabled, let surface, let clock = gdk_surface_get_frame_clock(surface)
    else { return }
    Gtk.connect(UnsafeMutableRawPointer(clock), "after-paint", Self.onAfterPaint, context: context)
  }

  /// Writes the frame log's line for the frame just painted, if the state
  /// it shows changed: counts, positions and which lines are shown, never a
  /// character of the text.
  func logFrame() {
    func shown(_ widget: Gtk.Widget?) -> Int {
      widget.map { gtk_widget_get_visible($0) != 0 ? 1 : 0 } ?? 0
    }
    let revealed = line.cells.filter {
      if case .revealed(utf8Range: _) = $0.content { return true }
      return false
    }.count
    let focus = kind != .password ? "none" : usernameHasFocus ? "username" : "password"
    let state =
      "frame pid=\(getpid()) dialog=\(number) kind=\(kind) cells=\(line.cells.count) "
      + "caret=\(line.caret) revealed=\(revealed) focused=\(field.isFocused ? 1 : 0) "
      + "focus=\(focus) capslock=\(shown(capsLockLabel)) recording=\(shown(recordingLabel)) "
      + "notice=\(shown(noticeLabel)) protection=\(protection.logName) "
      + "strength=\(strengthLine.verdict?.rawValue ?? "none")"
    guard state != loggedFrame else { return }
    loggedFrame = state
    FrameLog.record(state)
  }
}
