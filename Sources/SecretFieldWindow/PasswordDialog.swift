internal import CGtk
package import SecretField
package import ScreenRecording
package import SecureMemory

/// A GTK 4 dialog around a ``SecretFieldState``: texts above, the field drawn
/// with cairo from its `DisplayLine`, a line that says what this display
/// protects, buttons below; for a git credential, a plain user-name field
/// above the password.
///
/// The password exists only in the field's secure buffer, in the memory the
/// caller names (secret memory in every tool). No GTK widget holds it: keys
/// come from a key event controller on the window (capture phase, so every
/// key reaches the field whatever has focus), a key's code point is encoded
/// into a small secure buffer and inserted from there, and the field is
/// drawn as one filled circle per character, the caret and the selection.
/// Copy, cut and paste are refused (the clipboard is never touched); the
/// buttons never take focus.
///
/// Assistive technologies are told of the field through an empty
/// `GtkPasswordEntry` under the drawing, which GTK announces with the
/// `password text` role and which never holds a character: it carries the
/// field's label as its name and the focus, so a screen reader says
/// "Password: password text" and gives no text.
///
/// Keys pass through an input method in password purpose first, so dead keys
/// and compose sequences type what they make; what it commits is typed one
/// character at a time, as a key is. On X11 the keyboard is grabbed while the
/// dialog is shown (``KeyboardGrab``); on Wayland the compositor is asked to
/// inhibit its shortcuts while the dialog has focus. A line under the field
/// says which of these held and what it cannot stop (``DisplayProtection``).
/// While a screen recorder is seen (``ScreenRecordingWatch``, every half
/// second) the field stays masked and reveal is refused with the reason.
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
  /// The user-name field's text once ``run(timeout:)`` returned, when
  /// ``DialogTexts/usernameLabel`` asked for one; not secret.
  package private(set) var username = ""
  /// What each editing command does to the field: the same editor as the
  /// terminal's.
  let editor = FieldEditor()
  /// What the dialog shows.
  let texts: DialogTexts
  let kind: Kind
  /// The UTF-8 of one typed character, born here and wiped after each key.
  var keyScratch: SecureBuffer
  /// One revealed character, NUL-terminated for cairo while it is drawn.
  var revealScratch: SecureBuffer
  /// The line drawn last, kept so drawing allocates nothing once it has room.
  var line: DisplayLine
  var outcome: EntryOutcome<Void>?
  let clock = ContinuousClock()
  /// This dialog's number in the process, for the tests' frame log.
  let number = FrameLog.nextDialogNumber()
  /// The frame log's last line, so that only changes are written.
  var loggedFrame = ""

  /// Asked after each edit for the quality of the field's text, from -100
  /// to 100 (nil: unknown), when ``DialogTexts/qualityBarLabel`` is set: the
  /// pinentry asks its client (`INQUIRE QUALITY`).
  package var estimateQuality: ((PasswordDialog) -> Int?)?
  /// The strength of a new password, judged in place after each edit (the
  /// judge copies nothing out of secure memory), in a line under the field:
  /// the words of the terminal prompt's line, which hold no character of
  /// the password. Rules are given at `init`; without, nothing is judged.
  var strengthLine: StrengthLine
  /// The pending judgement, scheduled at a priority below GDK's redraw so
  /// that it runs once the edit's frame is painted and no event waits.
  var strengthJudgement: guint = 0
  /// The write end of a pipe or socket whose reader going away ends the
  /// dialog as a cancel: the pinentry's answers to its client, so that no
  /// dialog stays open for an agent that is gone. nil watches nothing.
  package var endsWhenReaderGone: Int32?

  var window: Gtk.Widget?
  /// Where the field is drawn.
  var area: Gtk.Widget?
  /// The empty `GtkPasswordEntry` that names the field for assistive
  /// technologies and holds the focus while the password is typed.
  var passwordStandIn: Gtk.Widget?
  /// The plain user-name field, when asked for.
  var usernameEntry: Gtk.Widget?
  var noticeLabel: Gtk.Widget?
  var capsLockLabel: Gtk.Widget?
  var revealButton: Gtk.Widget?
  var qualityBar: Gtk.Widget?
  var strengthLabel: Gtk.Widget?
  var recordingLabel: Gtk.Widget?
  var protectionLabel: Gtk.Widget?
  var keyboard: OpaquePointer?
  /// The handler of the keyboard's Caps Lock changes: the keyboard outlives
  /// the dialog (a pinentry asks again), so it is disconnected at the end.
  var capsLockHandler: gulong = 0
  /// The window's key controller (`GtkEventControllerKey`).
  var keys: OpaquePointer?
  var inputMethod: UnsafeMutablePointer<GtkIMContext>?
  /// Whether ``inputMethod`` is the key controller's now: it is not while
  /// the user-name field, which has an input method of its own, has focus.
  var inputMethodAttached = false
  var grab: KeyboardGrab?
  /// The window's surface, once shown.
  var surface: OpaquePointer?
  /// What the display gives against other programs, as last learned.
  var protection = DisplayProtection.unknown
  /// The recorder seen at the last look, if any.
  var recorder: ScreenRecordingWatch.Sighting?

  /// Looks for screen recorders while the dialog is up; nil looks for none.
  package var recordingWatch: ScreenRecordingWatch? = .configured()
  /// How often ``recordingWatch`` looks.
  static let recordingCheckInterval: guint = 500

  /// A dialog of `kind` showing `texts`, with a field of `limits` whose text,
  /// and every scratch buffer a key passes through, is in `storage`; with
  /// `strength`, a line under the field judges the password by those rules
  /// as it is typed.
  ///
  /// - Throws: `SecureMemoryError` when the field's secure memory (or the
  ///   strength judge's scratch) cannot be had.
  package init(
    kind: Kind, texts: DialogTexts, limits: FieldLimits = .default, storage: SecureStorage,
    strength: StrengthRules? = nil
  ) throws(SecureMemoryError) {
    self.kind = kind
    self.texts = texts
    var judge: StrengthJudge? = nil
    if kind == .password, let strength {
      judge = try StrengthJudge(
        rules: strength, storage: StrengthLine.scratchStorage(for: storage))
    }
    strengthLine = StrengthLine(judge: judge, label: "Strength", isUTF8: true)
    field = try SecretFieldState(limits: limits, storage: storage)
    keyScratch = try SecureBuffer(capacity: 8, storage: storage)
    revealScratch = try SecureBuffer(capacity: 64, storage: storage)
    line = field.render(at: ContinuousClock().now)
    username = texts.username ?? ""
  }

  /// Shows the dialog and runs until it is answered (`.yes`: OK, yes or
  /// Enter), cancelled (Esc, Cancel, No, the window closed), declined (the
  /// not-OK button), or `timeout` passes; the window is gone when it
  /// returns.
  ///
  /// - Throws: ``DisplayError`` when no display can be opened, naming the
  ///   ones tried.
  package func run(timeout: Duration?) throws(DisplayError) -> EntryOutcome<Void> {
    try WindowDisplay.open()
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
    focusFirstField()
    watchFrames(context: context)
    protectKeys(context: context)
    // A grabbing window is focused for GTK whatever the X focus; the X
    // focus is asked ten times a second (one round trip each).
    let focusCheck =
      grab == nil
      ? 0 : g_timeout_add_full(G_PRIORITY_DEFAULT, 100, Self.onFocusCheck, context, nil)
    while outcome == nil { g_main_context_iteration(nil, 1) }
    if focusCheck != 0 { g_source_remove(focusCheck) }
    if strengthJudgement != 0 { g_source_remove(strengthJudgement) }
    releaseKeys()
    if readerWatch != 0 { g_source_remove(readerWatch) }
    if recordingCheck != 0 { g_source_remove(recordingCheck) }
    if let inputMethod {
      gtk_im_context_focus_out(inputMethod)
      gtk_im_context_set_client_widget(inputMethod, nil)
      if let keys { gtk_event_controller_key_set_im_context(keys, nil) }
      g_object_unref(UnsafeMutableRawPointer(inputMethod))
      self.inputMethod = nil
    }
    if let keyboard, capsLockHandler != 0 {
      g_signal_handler_disconnect(UnsafeMutableRawPointer(keyboard), capsLockHandler)
    }
    if let usernameEntry, let text = gtk_editable_get_text(OpaquePointer(usernameEntry)) {
      username = String(cString: text)
    }
    gtk_window_destroy(Gtk.cast(window))
    while g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
    return outcome ?? .ended(.cancelled(.button))
  }

  /// The field's text, copied into a new secure buffer of `storage`, for the
  /// caller to hand on once the dialog was accepted.
  ///
  /// - Throws: `SecureMemoryError` when the buffer cannot be had.
  package func answer(storage: SecureStorage) throws(SecureMemoryError) -> SecureBuffer {
    var answer = try SecureBuffer(capacity: max(field.utf8Count, 1), storage: storage)
    try field.withSecret { bytes throws(SecureMemoryError) in try answer.append(bytes) }
    return answer
  }

  // MARK: Reacting

  func end(_ outcome: EntryOutcome<Void>) {
    if self.outcome == nil { self.outcome = outcome }
  }

  func redraw() {
    if let area { gtk_widget_queue_draw(area) }
  }

  func say(_ notice: String?) {
    guard let noticeLabel else { return }
    gtk_label_set_text(Gtk.opaque(noticeLabel), notice ?? "")
    gtk_widget_set_visible(noticeLabel, notice == nil ? 0 : 1)
  }

  func updateCapsLock() {
    guard let keyboard else { return }
    field.capsLock = gdk_device_get_caps_lock_state(keyboard) != 0 ? .on : .off
    let shown = field.capsLock == .on && field.isFocused
    if let capsLockLabel { gtk_widget_set_visible(capsLockLabel, shown ? 1 : 0) }
  }

  func toggleReveal() {
    say(nil)
    take(editor.perform(.toggleReveal, on: &field))
    updateRevealButton()
    redraw()
  }

  /// Shows what the editor said: a refusal in words, the end of the entry.
  /// Returns whether the text changed.
  @discardableResult
  func take(_ reaction: FieldEditor.Reaction) -> Bool {
    if let refusal = reaction.refusal { say(message(for: refusal)) }
    switch reaction.conclusion {
    case .submit?: submit()
    case .cancel(let cancellation)?: end(.ended(.cancelled(cancellation)))
    case nil: break
    }
    return reaction.editedFrom != nil
  }

  /// Accepts the dialog, unless a credential's user name or password is
  /// still empty: that field gets the focus and a word says what is missing.
  func submit() {
    guard let usernameEntry else { return end(.yes) }
    let text = gtk_editable_get_text(OpaquePointer(usernameEntry)).map { String(cString: $0) }
    if (text ?? "").isEmpty {
      focusUsername()
      say("Type the user name first.")
    } else if field.utf8Count == 0 {
      focusPassword()
      say("Type the password.")
    } else {
      end(.yes)
    }
  }

  /// A refusal in the window's words.
  func message(for refusal: FieldRefusal) -> String {
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
  func checkRecording() {
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

  /// Tells the field whether the window has the focus: GTK's word, and,
  /// while the keyboard is grabbed, the X server's (``KeyboardGrab``). On
  /// Wayland it is the compositor's: whether it shows the window as the
  /// active one (`GDK_TOPLEVEL_STATE_FOCUSED`). GTK also calls a window
  /// inactive for the moment a compositor such as sway takes the keyboard
  /// away and gives it back to send a new keymap (another keyboard typed, a
  /// layout switched), which is no other window taking the focus.
  func updateFocus() {
    guard let window else { return }
    let focused: Bool
    if case .wayland = protection, let surface {
      focused =
        gdk_toplevel_get_state(surface).rawValue & GDK_TOPLEVEL_STATE_FOCUSED.rawValue != 0
    } else {
      focused =
        gtk_window_is_active(Gtk.cast(window)) != 0 && (grab?.windowHasInputFocus ?? true)
    }
    guard focused != field.isFocused else { return }
    field.isFocused = focused
    if let inputMethod, inputMethodAttached {
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

  func updateRevealButton() {
    guard let revealButton else { return }
    gtk_button_set_label(
      Gtk.cast(revealButton), field.obfuscationMode == .visible ? "Hide" : "Show")
  }

  /// After an edit: the quality bar asked again, and the strength line
  /// judged once the edit's frame is painted.
  func edited() {
    updateQuality()
    strengthLine.fieldChanged()
    guard strengthLine.isStale, strengthJudgement == 0 else { return }
    strengthJudgement = g_idle_add_full(
      G_PRIORITY_LOW, Self.onStrengthJudgement, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  /// Judges the field for the strength line, within `StrengthBudget.keystroke`,
  /// and shows the line.
  func judgeStrength() {
    strengthJudgement = 0
    guard strengthLine.judge(field, budget: .keystroke), let strengthLabel else { return }
    gtk_label_set_text(Gtk.opaque(strengthLabel), strengthLine.text ?? "")
    gtk_widget_set_visible(strengthLabel, strengthLine.text == nil ? 0 : 1)
  }

  /// Asks ``estimateQuality`` and shows the answer in the quality bar.
  func updateQuality() {
    guard let qualityBar, let estimateQuality else { return }
    let score = estimateQuality(self) ?? -100
    gtk_level_bar_set_value(Gtk.opaque(qualityBar), Double(score + 100))
  }

  // MARK: Drawing

  /// Draws the field: a frame, one filled circle per masked character (or the
  /// character itself when revealed), the selection behind them, the caret.
  func draw(_ cairo: OpaquePointer, width: Int32, height: Int32) {
    field.render(at: clock.now, into: &line)
    let painter = FieldPainter(cairo: cairo, width: Double(width), height: Double(height))
    painter.paint(line, focused: field.isFocused && !usernameHasFocus) { cell, x, baseline in
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
}
