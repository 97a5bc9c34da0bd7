internal import CGtk

/// The few GObject calls Swift cannot make as C spells them: `g_signal_connect`
/// is a macro, and a handler's type depends on its signal.
enum Gtk {
  /// A widget as the C functions that take a `GtkWidget *` want it.
  typealias Widget = UnsafeMutablePointer<GtkWidget>

  /// Connects `handler` to `signal` of `instance`, with `context` as its user
  /// data. Wraps `g_signal_connect_data` (what the `g_signal_connect` macro
  /// expands to).
  ///
  /// - Parameter handler: a `@convention(c)` function of the signal's own C
  ///   type; it is passed on as a `GCallback`, as C code casts it.
  static func connect<Handler>(
    _ instance: UnsafeMutableRawPointer?, _ signal: String, _ handler: Handler,
    context: UnsafeMutableRawPointer
  ) {
    _ = g_signal_connect_data(
      instance, signal, unsafeBitCast(handler, to: GCallback.self), context, nil,
      GConnectFlags(rawValue: 0))
  }

  /// `widget` as a pointer of the type a C function wants for a subclass.
  static func cast<Target>(_ widget: Widget?, to type: Target.Type = Target.self)
    -> UnsafeMutablePointer<Target>?
  {
    UnsafeMutableRawPointer(widget)?.assumingMemoryBound(to: Target.self)
  }

  /// `widget` as an opaque pointer, for the subclasses GTK declares final
  /// (`GtkLabel`, `GtkBox`), which Swift imports as `OpaquePointer`.
  static func opaque(_ widget: Widget?) -> OpaquePointer? {
    widget.map { OpaquePointer($0) }
  }

  /// Appends `child` to the box `box`. Wraps `gtk_box_append`.
  static func append(to box: Widget, _ child: Widget) {
    gtk_box_append(cast(box, to: GtkBox.self), child)
  }

  /// A label with `text`, wrapping at word boundaries, aligned left.
  static func label(_ text: String) -> Widget {
    let label = gtk_label_new(text)!
    gtk_label_set_wrap(opaque(label), 1)
    gtk_label_set_xalign(opaque(label), 0)
    return label
  }
}
