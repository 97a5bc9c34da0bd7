internal import CGtk
import SecretField

extension PasswordDialog {
  /// The description a screen reader gives of the password field.
  static let fieldDescription =
    "Password field. What is typed is not given to assistive technologies; "
    + "Tab shows or hides it on the screen."

  func build(context: UnsafeMutableRawPointer) {
    let window = gtk_window_new()!
    self.window = window
    gtk_window_set_title(Gtk.cast(window), texts.title)
    gtk_window_set_default_size(Gtk.cast(window), 440, -1)
    gtk_window_set_resizable(Gtk.cast(window), 0)
    Gtk.connect(window, "close-request", Self.onCloseRequest, context: context)
    Gtk.connect(window, "notify::is-active", Self.onActiveChanged, context: context)
    Gtk.connect(window, "notify::focus-widget", Self.onFocusWidgetChanged, context: context)

    let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
    for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(box, 16) }
    gtk_widget_set_margin_start(box, 16)
    gtk_widget_set_margin_end(box, 16)
    gtk_window_set_child(Gtk.cast(window), box)

    if let description = texts.description, !description.isEmpty {
      Gtk.append(to: box, Gtk.label(description))
    }
    if kind == .password {
      if let usernameLabel = texts.usernameLabel {
        Gtk.append(to: box, Gtk.label(usernameLabel))
        let entry = Self.usernameEntry(label: usernameLabel, text: texts.username ?? "")
        usernameEntry = entry
        Gtk.append(to: box, entry)
      }
      Gtk.append(to: box, Gtk.label(texts.prompt))
      Gtk.append(to: box, passwordField(context: context))
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
      if strengthLine.judges {
        let strength = Gtk.label("")
        strengthLabel = strength
        gtk_widget_set_visible(strength, 0)
        Gtk.append(to: box, strength)
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
    let protection = Gtk.label("")
    protectionLabel = protection
    gtk_widget_set_visible(protection, 0)
    Gtk.append(to: box, protection)
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
    self.keys = keys
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    if kind == .password, let area {
      let inputMethod = Self.passwordInputMethod()
      self.inputMethod = inputMethod
      gtk_im_context_set_client_widget(inputMethod, area)
      Gtk.connect(UnsafeMutableRawPointer(inputMethod), "commit", Self.onCommit, context: context)
    }
    Gtk.connect(UnsafeMutableRawPointer(keys), "key-pressed", Self.onKeyPressed, context: context)
    gtk_widget_add_controller(window, keys)

    if let seat = gdk_display_get_default_seat(gdk_display_get_default()),
      let keyboard = gdk_seat_get_keyboard(seat)
    {
      self.keyboard = keyboard
      capsLockHandler = Gtk.connect(
        UnsafeMutableRawPointer(keyboard), "notify::caps-lock-state", Self.onCapsLockChanged,
        context: context)
      updateCapsLock()
    }
  }

  /// The password field: the drawing area on top of an empty, transparent
  /// `GtkPasswordEntry` of the same size.
  ///
  /// The entry is there for assistive technologies and the focus alone:
  /// GTK announces it as `password text`, named by `texts.prompt`, and
  /// gives its text, which stays empty since no key ever reaches it (the
  /// window's key controller takes every key first) and the pointer cannot
  /// target it. The drawing area is no accessible node of its own.
  func passwordField(context: UnsafeMutableRawPointer) -> Gtk.Widget {
    let standIn = gtk_password_entry_new()!
    passwordStandIn = standIn
    gtk_widget_set_opacity(standIn, 0)
    gtk_widget_set_can_target(standIn, 0)
    var child = gtk_widget_get_first_child(standIn)
    while let widget = child {
      gtk_widget_set_can_target(widget, 0)
      child = gtk_widget_get_next_sibling(widget)
    }
    Gtk.setAccessibleText(
      of: standIn,
      [
        (GTK_ACCESSIBLE_PROPERTY_LABEL, texts.prompt),
        (GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, Self.fieldDescription),
      ])

    let area = Gtk.widget(gtk_drawing_area_get_type(), role: GTK_ACCESSIBLE_ROLE_NONE)
    self.area = area
    gtk_drawing_area_set_content_height(Gtk.cast(area), 34)
    gtk_widget_set_hexpand(area, 1)
    gtk_drawing_area_set_draw_func(Gtk.cast(area), Self.onDraw, context, nil)
    let click = gtk_gesture_click_new()
    Gtk.connect(UnsafeMutableRawPointer(click), "pressed", Self.onFieldClicked, context: context)
    gtk_widget_add_controller(area, click)

    let overlay = gtk_overlay_new()!
    gtk_overlay_set_child(OpaquePointer(overlay), standIn)
    gtk_overlay_add_overlay(OpaquePointer(overlay), area)
    gtk_overlay_set_measure_overlay(OpaquePointer(overlay), area, 1)
    return overlay
  }

  /// A plain entry for a user name, holding `text`, named `label` for
  /// assistive technologies. Not secret: an ordinary GTK entry.
  static func usernameEntry(label: String, text: String) -> Gtk.Widget {
    let entry = gtk_entry_new()!
    gtk_editable_set_text(OpaquePointer(entry), text)
    gtk_entry_set_input_hints(
      Gtk.cast(entry),
      GtkInputHints(
        rawValue: GTK_INPUT_HINT_NO_SPELLCHECK.rawValue | GTK_INPUT_HINT_NO_EMOJI.rawValue))
    Gtk.setAccessibleText(of: entry, [(GTK_ACCESSIBLE_PROPERTY_LABEL, label)])
    return entry
  }

  /// The input method the keys pass through: the one the desktop chose
  /// (`GtkIMMulticontext`), told that it is a password (so, with IBus or
  /// Fcitx, no candidate window, prediction or learning), else GTK's own,
  /// which does dead keys and compose.
  static func passwordInputMethod() -> UnsafeMutablePointer<GtkIMContext> {
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
  func button(
    _ title: String, _ handler: @convention(c) (Gtk.Widget?, gpointer?) -> Void,
    context: UnsafeMutableRawPointer
  ) -> Gtk.Widget {
    let button = gtk_button_new_with_mnemonic(title)!
    gtk_widget_set_focusable(button, 0)
    gtk_widget_set_focus_on_click(button, 0)
    Gtk.connect(button, "clicked", handler, context: context)
    return button
  }
}
