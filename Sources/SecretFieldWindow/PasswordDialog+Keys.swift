internal import CGtk
import SecretField
import SecureMemory

extension PasswordDialog {
  /// Whether the user-name field has the keyboard focus.
  var usernameHasFocus: Bool {
    guard let usernameEntry, let window, let focus = gtk_window_get_focus(Gtk.cast(window))
    else { return false }
    return focus == usernameEntry || gtk_widget_is_ancestor(focus, usernameEntry) != 0
  }

  /// Gives the focus to the user-name field when there is one and it is
  /// empty, else to the password.
  func focusFirstField() {
    let typed = usernameEntry.flatMap { gtk_editable_get_text(OpaquePointer($0)) }
    if usernameEntry != nil, typed.map({ $0.pointee == 0 }) ?? true {
      focusUsername()
    } else {
      focusPassword()
    }
  }

  func focusUsername() {
    guard let usernameEntry else { return }
    gtk_widget_grab_focus(usernameEntry)
    focusChanged()
  }

  func focusPassword() {
    if let passwordStandIn { gtk_widget_grab_focus(passwordStandIn) }
    focusChanged()
  }

  /// Hands the keys to the field or to the user-name field after the focus
  /// moved: the password's input method is the key controller's only while
  /// the password has focus, since the user-name field has an input method
  /// of its own, and the field's caret is drawn only then.
  func focusChanged() {
    guard let keys, let inputMethod else { return }
    let attach = !usernameHasFocus
    if attach != inputMethodAttached {
      inputMethodAttached = attach
      gtk_event_controller_key_set_im_context(keys, attach ? inputMethod : nil)
      if attach {
        gtk_im_context_focus_in(inputMethod)
      } else {
        gtk_im_context_reset(inputMethod)
        gtk_im_context_focus_out(inputMethod)
      }
    }
    redraw()
  }

  /// Handles a key: the window's table (``GdkKeyMap``) names it, the shared
  /// bindings say what it does and the editor does it; a key they do not name
  /// types its character. Returns true when the key was taken. While the
  /// user-name field has focus, only the keys that leave it are taken.
  func keyPressed(_ keyval: guint, _ state: GdkModifierType) -> Bool {
    let key = GdkKeyMap.fieldKey(keyval, state)
    if kind != .password {
      switch (key?.name, keyval) {
      case (.enter?, _): end(.yes)
      case (.escape?, _): end(.ended(.cancelled(.escape)))
      case (_, guint(GDK_KEY_y)) where kind == .confirmation,
        (_, guint(GDK_KEY_Y)) where kind == .confirmation:
        end(.yes)
      case (_, guint(GDK_KEY_n)) where kind == .confirmation,
        (_, guint(GDK_KEY_N)) where kind == .confirmation:
        end(.ended(.declined))
      default: break
      }
      return true
    }
    if Int32(bitPattern: keyval) == GDK_KEY_Caps_Lock { return false }
    if usernameEntry != nil, let taken = movedBetweenFields(key, keyval) { return taken }
    say(nil)
    var edited = false
    if let key, let command = FieldKeyBindings.command(for: key) {
      edited = take(editor.perform(command, on: &field, at: clock.now))
      if command == .toggleReveal { updateRevealButton() }
    } else if !GdkKeyMap.holdsShortcutModifier(state) {
      // A modifier alone, or a key that types nothing, is no edit.
      edited = type(gdk_keyval_to_unicode(keyval))
    }
    if edited { self.edited() }
    updateCapsLock()
    redraw()
    return true
  }

  /// The keys of a dialog with a user-name field that move between its two
  /// fields: in the user name, Enter, Tab and Down go to the password (Enter
  /// refused while it is empty) and Esc cancels, any other key is the
  /// entry's (nil is returned for those it takes); in the password, Up and
  /// Shift+Tab go back. Returns whether the key was taken, or nil for a key
  /// the field handles.
  func movedBetweenFields(_ key: FieldKey?, _ keyval: guint) -> Bool? {
    let leftTab = Int32(bitPattern: keyval) == GDK_KEY_ISO_Left_Tab
    guard usernameHasFocus else {
      guard key?.name == .up || leftTab else { return nil }
      focusUsername()
      return true
    }
    switch key?.name {
    case .escape? where key?.modifiers.isEmpty == true:
      end(.ended(.cancelled(.escape)))
      return true
    case .enter?:
      submitUsername()
      return true
    case .tab? where key?.modifiers.isEmpty == true, .down?:
      focusPassword()
      return true
    default:
      if leftTab { return true }
      return false
    }
  }

  /// Enter in the user-name field: on to the password, or, with both typed,
  /// the answer.
  func submitUsername() {
    let text = usernameEntry.flatMap { gtk_editable_get_text(OpaquePointer($0)) }
    guard let text, text.pointee != 0 else {
      say("Type the user name first.")
      return
    }
    say(nil)
    if field.utf8Count == 0 { focusPassword() } else { submit() }
  }

  /// Types what the input method committed (a NUL-terminated string of
  /// GTK's), one character at a time, as keys are typed.
  func commit(_ text: UnsafePointer<CChar>) {
    guard !usernameHasFocus else { return }
    say(nil)
    let byteCount = field.utf8Count
    var iterator = UnsafeBufferPointer(start: text, count: strlen(text)).lazy
      .map { UInt8(bitPattern: $0) }.makeIterator()
    var decoder = UTF8()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): _ = type(scalar.value)
      case .emptyInput, .error: break decoding
      }
    }
    if field.utf8Count != byteCount { edited() }
    updateCapsLock()
    redraw()
  }

  /// Types the character `codePoint` (0 for a key without one): its UTF-8 is
  /// written into the secure scratch buffer, inserted from there, and wiped.
  /// Returns whether it was inserted.
  func type(_ codePoint: guint32) -> Bool {
    guard codePoint >= 0x20, codePoint != 0x7F, !(0x80..<0xA0).contains(codePoint),
      let scalar = Unicode.Scalar(codePoint)
    else { return false }
    let byteCount = UTF8.width(scalar)
    var typed = false
    do {
      try keyScratch.append(count: byteCount) { bytes in
        var offset = 0
        for unit in UTF8.encode(scalar)! {
          bytes[offset] = unit
          offset += 1
        }
      }
      let editor = editor
      let now = clock.now
      typed = keyScratch.withUnsafeBytes { text in
        take(editor.perform(.insert, on: &field, text: text, at: now))
      }
    } catch {
      say(FieldRefusal.memoryUnavailable.description)
    }
    keyScratch.removeAll()
    return typed
  }
}
