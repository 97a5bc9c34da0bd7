internal import CGtk
package import SecretField
package import ScreenRecording
package import SecureMemory

/// A GTK 4 dialog around a ``SecretFieldState``: texts above, the field drawn
/// with cairo from its `DisplayLine`, buttons below.
///
/// The password exists only in the field's secure buffer. No GTK widget holds
/// it: keys come from a key event controller on the window (capture phase, so
/// every key reaches the field whatever has focus), a key's code point is
/// encoded into a small secure buffer and inserted from there, and the field is
/// drawn as one filled circle per character, the caret and the selection.
/// Copy, cut and paste are refused (the clipboard is never touched); the
/// buttons never take focus.
///
/// Keys pass through an input method in password purpose first, so dead keys
/// and compose sequences type what they make; what it commits is typed one
/// character at a time, as a key is. On X11 the keyboard is grabbed while the
/// dialog is shown (``KeyboardGrab``); a grab that fails is said in the
/// dialog. While a screen recorder is seen (``ScreenRecordingWatch``, every
/// half second) the field stays masked and reveal is refused with the reason.
///
/// The dialog runs its own main loop (`g_main_context_iteration`) until it
/// ends; it needs no `GtkApplication`, so no D-Bus name is taken.
package final class PasswordDialog {
  /// What the dialog asks for.
  package enum Kind: Sendable, Hashable {
    /// A password: the field, OK and Cancel.
    case password
    /// Yes or no: no field.
    case confirmation
    /// A message with one button.
    case message
  }

  /// The field; its text is the answer once ``run(timeout:)`` returns
  /// `.yes`.
  package var field: SecretFieldState
  /// What each editing command does to the field: the same editor as the
  /// terminal's.
  private let editor = FieldEditor()
  /// What the dialog shows.
  let texts: DialogTexts
  let kind: Kind
  /// The UTF-8 of one typed character, born here and wiped after each key.
  private var keyScratch: SecureBuffer
  /// One revealed character, NUL-terminated for cairo while it is drawn.
  private var revealScratch: SecureBuffer
  /// The line drawn last, kept so drawing allocates nothing once it has room.
  private var line: DisplayLine
  private var outcome: EntryOutcome<Void>?
  private let clock = ContinuousClock()

  /// Asked after each edit for the quality of the field's text, from -100
  /// to 100 (nil: unknown), when ``DialogTexts/qualityBarLabel`` is set: the
  /// pinentry asks its client (`INQUIRE QUALITY`).
  package var estimateQuality: ((PasswordDialog) -> Int?)?
  /// The write end of a pipe or socket whose reader going away ends the
  /// dialog as a cancel: the pinentry's answers to its client, so that no
  /// dialog stays open for an agent that is gone. nil watches nothing.
  package var endsWhenReaderGone: Int32?

  private var window: Gtk.Widget?
  private var area: Gtk.Widget?
  private var noticeLabel: Gtk.Widget?
  private var capsLockLabel: Gtk.Widget?
  private var revealButton: Gtk.Widget?
  private var qualityBar: Gtk.Widget?
  private var keyboard: OpaquePointer?
  private var recordingLabel: Gtk.Widget?
  private var grabWarningLabel: Gtk.Widget?
  private var inputMethod: UnsafeMutablePointer<GtkIMContext>?
  private var grab: KeyboardGrab?
  /// The recorder seen at the last look, if any.
  private var recorder: ScreenRecordingWatch.Sighting?

  /// Looks for screen recorders while the dialog is up; nil looks for none.
  package var recordingWatch: ScreenRecordingWatch? = .configured()
  /// How often ``recordingWatch`` looks.
  static let recordingCheckInterval: guint = 500

  /// A dialog of `kind` showing `texts`, with a field of `limits`.
  ///
  /// - Throws: `SecureMemoryError` when the field's secure memory cannot be had.
  package init(
    kind: Kind, texts: DialogTexts, limits: FieldLimits = .default,
    storage: SecureStorage = .sealed
  ) throws(SecureMemoryError) {
    self.kind = kind
    self.texts = texts
    field = try SecretFieldState(limits: limits, storage: storage)
    keyScratch = try SecureBuffer(capacity: 8, storage: storage)
    revealScratch = try SecureBuffer(capacity: 64, storage: storage)
    line = field.render(at: ContinuousClock().now)
  }

  /// Shows the dialog and runs until it is answered (`.yes`: OK, yes or
  /// Enter), cancelled (Esc, Cancel, No, the window closed), declined (the
  /// not-OK button), or `timeout` passes; the window is gone when it
  /// returns.
  ///
  /// - Returns: nil when GTK cannot open a display.
  package func run(timeout: Duration?) -> EntryOutcome<Void>? {
    guard gtk_init_check() != 0 else { return nil }
    let context = Unmanaged.passUnretained(self).toOpaque()
    build(context: context)
    if let timeout {
      let milliseconds =
        timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
      g_timeout_add_full(
        G_PRIORITY_DEFAULT, guint(clamping: max(milliseconds, 1)), Self.onTimeout, context, nil)
    }
    var readerWatch: guint = 0
    if let endsWhenReaderGone {
      readerWatch = g_unix_fd_add_full(
        G_PRIORITY_DEFAULT, endsWhenReaderGone,
        GIOCondition(rawValue: G_IO_ERR.rawValue | G_IO_HUP.rawValue), Self.onReaderGone, context,
        nil)
    }
    var recordingCheck: guint = 0
    if recordingWatch != nil {
      checkRecording()
      recordingCheck = g_timeout_add_full(
        G_PRIORITY_DEFAULT, Self.recordingCheckInterval, Self.onRecordingCheck, context, nil)
    }
    gtk_window_present(Gtk.cast(window))
    if let area { gtk_widget_grab_focus(area) }
    grabKeyboard()
    // A grabbing window is focused for GTK whatever the X focus; the X
    // focus is asked ten times a second (one round trip each).
    let focusCheck =
      grab == nil
      ? 0 : g_timeout_add_full(G_PRIORITY_DEFAULT, 100, Self.onFocusCheck, context, nil)
    while outcome == nil { g_main_context_iteration(nil, 1) }
    if focusCheck != 0 { g_source_remove(focusCheck) }
    grab?.release()
    grab = nil
    if readerWatch != 0 { g_source_remove(readerWatch) }
    if recordingCheck != 0 { g_source_remove(recordingCheck) }
    if let inputMethod {
      gtk_im_context_focus_out(inputMethod)
      gtk_im_context_set_client_widget(inputMethod, nil)
    }
    gtk_window_destroy(Gtk.cast(window))
    while g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
    return outcome
  }

  /// The field's text, copied into a new secure buffer of `storage`, for the
  /// caller to hand on once the dialog was accepted.
  ///
  /// - Throws: `SecureMemoryError` when the buffer cannot be had.
  package func answer(storage: SecureStorage = .sealed) throws(SecureMemoryError) -> SecureBuffer {
    var answer = try SecureBuffer(capacity: max(field.utf8Count, 1), storage: storage)
    try field.withSecret { bytes throws(SecureMemoryError) in try answer.append(bytes) }
    return answer
  }

  // MARK: Building

  private func build(context: UnsafeMutableRawPointer) {
    let window = gtk_window_new()!
    self.window = window
    gtk_window_set_title(Gtk.cast(window), texts.title)
    gtk_window_set_default_size(Gtk.cast(window), 440, -1)
    gtk_window_set_resizable(Gtk.cast(window), 0)
    Gtk.connect(window, "close-request", Self.onCloseRequest, context: context)
    Gtk.connect(window, "notify::is-active", Self.onActiveChanged, context: context)

    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
    for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(box, 16) }
    gtk_widget_set_margin_start(box, 16)
    gtk_widget_set_margin_end(box, 16)
    gtk_window_set_child(Gtk.cast(window), box)

    if let description = texts.description, !description.isEmpty {
      Gtk.append(to: box, Gtk.label(description))
    }
    if kind == .password {
      Gtk.append(to: box, Gtk.label(texts.prompt))
      let area = Self.passwordArea(label: texts.prompt)
      self.area = area
      gtk_drawing_area_set_content_height(Gtk.cast(area), 34)
      gtk_widget_set_hexpand(area, 1)
      gtk_widget_set_focusable(area, 1)
      gtk_drawing_area_set_draw_func(Gtk.cast(area), Self.onDraw, context, nil)
      Gtk.append(to: box, area)
      if let qualityBarLabel = texts.qualityBarLabel {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        Gtk.append(to: row, Gtk.label(qualityBarLabel))
        let bar = gtk_level_bar_new_for_interval(0, 200)!
        qualityBar = bar
        gtk_widget_set_hexpand(bar, 1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        Gtk.append(to: row, bar)
        Gtk.append(to: box, row)
      }
      let capsLock = Gtk.label("Caps Lock is on")
      capsLockLabel = capsLock
      gtk_widget_set_visible(capsLock, 0)
      Gtk.append(to: box, capsLock)
      let recording = Gtk.label("")
      recordingLabel = recording
      gtk_widget_set_visible(recording, 0)
      Gtk.append(to: box, recording)
    } else if !texts.prompt.isEmpty {
      Gtk.append(to: box, Gtk.label(texts.prompt))
    }
    let grabWarning = Gtk.label(
      "The keyboard could not be grabbed: another program may be reading what you type. "
        + "Cancel unless you trust every program on this display.")
    grabWarningLabel = grabWarning
    gtk_widget_set_visible(grabWarning, 0)
    Gtk.append(to: box, grabWarning)
    let notice = Gtk.label(texts.error ?? "")
    noticeLabel = notice
    gtk_widget_set_visible(notice, texts.error == nil ? 0 : 1)
    Gtk.append(to: box, notice)

    let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
    gtk_widget_set_halign(buttons, GTK_ALIGN_END)
    if kind == .password {
      let reveal = button("Show", Self.onRevealClicked, context: context)
      revealButton = reveal
      Gtk.append(to: buttons, reveal)
    }
    if kind == .confirmation, let notOkLabel = texts.notOkLabel {
      Gtk.append(to: buttons, button(notOkLabel, Self.onNotOKClicked, context: context))
    }
    if kind != .message {
      Gtk.append(to: buttons, button(texts.cancelLabel, Self.onCancelClicked, context: context))
    }
    Gtk.append(to: buttons, button(texts.okLabel, Self.onOKClicked, context: context))
    Gtk.append(to: box, buttons)

    let keys = gtk_event_controller_key_new()
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    if kind == .password, let area {
      let inputMethod = Self.passwordInputMethod()
      self.inputMethod = inputMethod
      gtk_im_context_set_client_widget(inputMethod, area)
      Gtk.connect(UnsafeMutableRawPointer(inputMethod), "commit", Self.onCommit, context: context)
      gtk_event_controller_key_set_im_context(keys, inputMethod)
      gtk_im_context_focus_in(inputMethod)
    }
    Gtk.connect(UnsafeMutableRawPointer(keys), "key-pressed", Self.onKeyPressed, context: context)
    gtk_widget_add_controller(window, keys)

    if let seat = gdk_display_get_default_seat(gdk_display_get_default()),
      let keyboard = gdk_seat_get_keyboard(seat)
    {
      self.keyboard = keyboard
      Gtk.connect(
        UnsafeMutableRawPointer(keyboard), "notify::caps-lock-state", Self.onCapsLockChanged,
        context: context)
      updateCapsLock()
    }
  }

  /// The field's drawing area, named for assistive technologies as a text
  /// box labelled `label`. It implements no text interface, so they are told
  /// what it is and never what it holds.
  private static func passwordArea(label: String) -> Gtk.Widget {
    var role = GValue()
    g_value_init(&role, gtk_accessible_role_get_type())
    g_value_set_enum(&role, gint(GTK_ACCESSIBLE_ROLE_TEXT_BOX.rawValue))
    defer { g_value_unset(&role) }
    let area = "accessible-role".withCString { name in
      var names: [UnsafePointer<CChar>?] = [name]
      return g_object_new_with_properties(gtk_drawing_area_get_type(), 1, &names, &role)!
    }
    let widget = UnsafeMutableRawPointer(area).assumingMemoryBound(to: GtkWidget.self)
    let description =
      "Password field. What is typed is not given to assistive technologies; "
      + "Tab shows or hides it on the screen."
    var properties = [GTK_ACCESSIBLE_PROPERTY_LABEL, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION]
    var values = [GValue(), GValue()]
    for (index, text) in [label, description].enumerated() {
      // G_TYPE_STRING, a macro Swift does not import: fundamental type 16.
      g_value_init(&values[index], GType(16 << 2))
      g_value_set_string(&values[index], text)
    }
    gtk_accessible_update_property_value(
      OpaquePointer(area), Int32(properties.count), &properties, &values)
    for index in values.indices { g_value_unset(&values[index]) }
    return widget
  }

  /// The input method the keys pass through: the one the desktop chose
  /// (`GtkIMMulticontext`), told that it is a password (so, with IBus or
  /// Fcitx, no candidate window, prediction or learning), else GTK's own,
  /// which does dead keys and compose.
  private static func passwordInputMethod() -> UnsafeMutablePointer<GtkIMContext> {
    let inputMethod = gtk_im_multicontext_new()!
    var purpose = GValue()
    g_value_init(&purpose, gtk_input_purpose_get_type())
    g_value_set_enum(&purpose, gint(GTK_INPUT_PURPOSE_PASSWORD.rawValue))
    g_object_set_property(
      UnsafeMutableRawPointer(inputMethod).assumingMemoryBound(to: GObject.self), "input-purpose",
      &purpose)
    g_value_unset(&purpose)
    var hints = GValue()
    g_value_init(&hints, gtk_input_hints_get_type())
    g_value_set_flags(
      &hints,
      guint(
        GTK_INPUT_HINT_NO_SPELLCHECK.rawValue | GTK_INPUT_HINT_NO_EMOJI.rawValue
          | GTK_INPUT_HINT_PRIVATE.rawValue | GTK_INPUT_HINT_INHIBIT_OSK.rawValue))
    g_object_set_property(
      UnsafeMutableRawPointer(inputMethod).assumingMemoryBound(to: GObject.self), "input-hints",
      &hints)
    g_value_unset(&hints)
    return inputMethod
  }

  /// A button that never takes focus, so the field keeps the keys.
  private func button(
    _ title: String, _ handler: @convention(c) (Gtk.Widget?, gpointer?) -> Void,
    context: UnsafeMutableRawPointer
  ) -> Gtk.Widget {
    let button = gtk_button_new_with_mnemonic(title)!
    gtk_widget_set_focusable(button, 0)
    gtk_widget_set_focus_on_click(button, 0)
    Gtk.connect(button, "clicked", handler, context: context)
    return button
  }

  // MARK: Reacting

  private func end(_ outcome: EntryOutcome<Void>) {
    if self.outcome == nil { self.outcome = outcome }
  }

  private func redraw() {
    if let area { gtk_widget_queue_draw(area) }
  }

  private func say(_ notice: String?) {
    guard let noticeLabel else { return }
    gtk_label_set_text(Gtk.opaque(noticeLabel), notice ?? "")
    gtk_widget_set_visible(noticeLabel, notice == nil ? 0 : 1)
  }

  private func updateCapsLock() {
    guard let keyboard else { return }
    field.capsLock = gdk_device_get_caps_lock_state(keyboard) != 0 ? .on : .off
    let shown = field.capsLock == .on && field.isFocused
    if let capsLockLabel { gtk_widget_set_visible(capsLockLabel, shown ? 1 : 0) }
  }

  private func toggleReveal() {
    say(nil)
    take(editor.perform(.toggleReveal, on: &field))
    updateRevealButton()
    redraw()
  }

  /// Shows what the editor said: a refusal in words, the end of the entry.
  /// Returns whether the text changed.
  @discardableResult
  private func take(_ reaction: FieldEditor.Reaction) -> Bool {
    if let refusal = reaction.refusal { say(message(for: refusal)) }
    switch reaction.conclusion {
    case .submit?: end(.yes)
    case .cancel(let cancellation)?: end(.ended(.cancelled(cancellation)))
    case nil: break
    }
    return reaction.editedFrom != nil
  }

  /// A refusal in the window's words.
  private func message(for refusal: FieldRefusal) -> String {
    switch refusal {
    case .revealRefused:
      let by = recorder.map { " by \($0)" } ?? ""
      return "The password can't be shown while the screen is being recorded\(by)."
    default:
      return refusal.description
    }
  }

  /// Asks ``recordingWatch`` whether a recorder runs; one that starts masks
  /// the field at once, and the line under it says which.
  private func checkRecording() {
    let sighting = recordingWatch?.look()
    guard sighting != recorder else { return }
    recorder = sighting
    field.isCaptured = sighting != nil
    if let recordingLabel {
      let text = sighting.map {
        "The screen is being recorded by \($0): the password stays masked."
      }
      gtk_label_set_text(Gtk.opaque(recordingLabel), text ?? "")
      gtk_widget_set_visible(recordingLabel, text == nil ? 0 : 1)
    }
    updateRevealButton()
    redraw()
  }

  /// Grabs the keyboard on X11 (``KeyboardGrab``) and says in the dialog, for
  /// as long as it is shown, when the grab failed.
  private func grabKeyboard() {
    guard let window else { return }
    switch KeyboardGrab.grab(window: window, keyboard: keyboard) {
    case .success(let grab): self.grab = grab
    case .failure(.heldByAnotherClient), .failure(.windowNotViewable):
      if let grabWarningLabel { gtk_widget_set_visible(grabWarningLabel, 1) }
    case .failure(.notX11): break
    }
  }

  /// Tells the field whether the window has the focus: GTK's word, and,
  /// while the keyboard is grabbed, the X server's (``KeyboardGrab``).
  private func updateFocus() {
    guard let window else { return }
    let focused =
      gtk_window_is_active(Gtk.cast(window)) != 0 && (grab?.windowHasInputFocus ?? true)
    guard focused != field.isFocused else { return }
    field.isFocused = focused
    if let inputMethod {
      if focused {
        gtk_im_context_focus_in(inputMethod)
      } else {
        gtk_im_context_focus_out(inputMethod)
      }
    }
    updateRevealButton()
    updateCapsLock()
    redraw()
  }

  private func updateRevealButton() {
    guard let revealButton else { return }
    gtk_button_set_label(
      Gtk.cast(revealButton), field.obfuscationMode == .visible ? "Hide" : "Show")
  }

  /// Handles a key: the window's table (``GdkKeyMap``) names it, the shared
  /// bindings say what it does and the editor does it; a key they do not name
  /// types its character. Returns true when the key was taken.
  private func keyPressed(_ keyval: guint, _ state: GdkModifierType) -> Bool {
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
    say(nil)
    var edited = false
    if let key, let command = FieldKeyBindings.command(for: key) {
      edited = take(editor.perform(command, on: &field, at: clock.now))
      if command == .toggleReveal { updateRevealButton() }
    } else if !GdkKeyMap.holdsShortcutModifier(state) {
      // A modifier alone, or a key that types nothing, is no edit.
      edited = type(gdk_keyval_to_unicode(keyval))
    }
    if edited { updateQuality() }
    updateCapsLock()
    redraw()
    return true
  }

  /// Asks ``estimateQuality`` and shows the answer in the quality bar.
  private func updateQuality() {
    guard let qualityBar, let estimateQuality else { return }
    let score = estimateQuality(self) ?? -100
    gtk_level_bar_set_value(Gtk.opaque(qualityBar), Double(score + 100))
  }

  /// Types what the input method committed (a NUL-terminated string of
  /// GTK's), one character at a time, as keys are typed.
  private func commit(_ text: UnsafePointer<CChar>) {
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
    if field.utf8Count != byteCount { updateQuality() }
    updateCapsLock()
    redraw()
  }

  /// Types the character `codePoint` (0 for a key without one): its UTF-8 is
  /// written into the secure scratch buffer, inserted from there, and wiped.
  /// Returns whether it was inserted.
  private func type(_ codePoint: guint32) -> Bool {
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

  // MARK: Drawing

  /// Draws the field: a frame, one filled circle per masked character (or the
  /// character itself when revealed), the selection behind them, the caret.
  private func draw(_ cairo: OpaquePointer, width: Int32, height: Int32) {
    field.render(at: clock.now, into: &line)
    let painter = FieldPainter(cairo: cairo, width: Double(width), height: Double(height))
    painter.paint(line, focused: field.isFocused) { cell, x, baseline in
      // The character's bytes, NUL-terminated in secure memory for cairo.
      let copied: Bool? = field.withRevealedBytes(of: cell) { bytes in
        do {
          try revealScratch.append(bytes)
          try revealScratch.append(count: 1) { $0[0] = 0 }
          return true
        } catch {
          return false
        }
      }
      if copied == true {
        revealScratch.withUnsafeBytes { text in
          painter.show(
            text.baseAddress!.assumingMemoryBound(to: CChar.self), x: x, baseline: baseline)
        }
      }
      revealScratch.removeAll()
    }
  }

  // MARK: C callbacks

  private static func dialog(_ context: gpointer?) -> PasswordDialog {
    Unmanaged<PasswordDialog>.fromOpaque(context!).takeUnretainedValue()
  }

  private static let onKeyPressed:
    @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
      _, keyval, _, state, context in
      dialog(context).keyPressed(keyval, state) ? 1 : 0
    }

  private static let onCommit:
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, gpointer?) -> Void = {
      _, text, context in
      guard let text else { return }
      dialog(context).commit(text)
    }

  private static let onRecordingCheck: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).checkRecording()
    return 1
  }

  private static let onTimeout: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).end(.ended(.timedOut))
    return 0
  }

  private static let onReaderGone: @convention(c) (Int32, GIOCondition, gpointer?) -> gboolean = {
    _, _, context in
    dialog(context).end(.ended(.hungUp))
    return 0
  }

  private static let onCloseRequest: @convention(c) (Gtk.Widget?, gpointer?) -> gboolean = {
    _, context in
    dialog(context).end(.ended(.cancelled(.button)))
    return 1
  }

  private static let onActiveChanged:
    @convention(c) (Gtk.Widget?, OpaquePointer?, gpointer?) -> Void = { _, _, context in
      dialog(context).updateFocus()
    }

  private static let onFocusCheck: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).updateFocus()
    return 1
  }

  private static let onCapsLockChanged:
    @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, context in
      let dialog = dialog(context)
      dialog.updateCapsLock()
      dialog.redraw()
    }

  private static let onDraw:
    @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?)
      -> Void = {
        _, cairo, width, height, context in
        guard let cairo else { return }
        dialog(context).draw(cairo, width: width, height: height)
      }

  private static let onRevealClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).toggleReveal()
  }

  private static let onCancelClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).end(.ended(.cancelled(.button)))
  }

  private static let onNotOKClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).end(.ended(.declined))
  }

  private static let onOKClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).end(.yes)
  }
}

/// The texts a dialog shows; none of them secret.
package struct DialogTexts: Sendable {
  /// The window's title.
  package var title: String
  /// Lines above the prompt, if any.
  package var description: String?
  /// The line before the field, or the question.
  package var prompt: String
  /// An error to show at first (a wrong passphrase before), if any.
  package var error: String?
  /// The accepting button's label.
  package var okLabel = "_OK"
  /// The cancelling button's label.
  package var cancelLabel = "_Cancel"
  /// The label before the quality bar under the field (the pinentry's
  /// `SETQUALITYBAR`); nil shows no bar.
  package var qualityBarLabel: String?
  /// The label of a confirmation's third button, which declines without
  /// cancelling (the pinentry's `SETNOTOK`); nil shows none.
  package var notOkLabel: String?

  /// Texts with `title` and `prompt`.
  package init(title: String, prompt: String) {
    self.title = title
    self.prompt = prompt
  }
}
