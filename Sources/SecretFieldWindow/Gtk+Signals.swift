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
  /// - Returns: the handler's ID, for `g_signal_handler_disconnect`.
  @discardableResult
  static func connect<Handler>(
    _ instance: UnsafeMutableRawPointer?, _ signal: String, _ handler: Handler,
    context: UnsafeMutableRawPointer
  ) -> gulong {
    g_signal_connect_data(
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

  /// A new widget of `type` with the accessible role `role`, which GTK
  /// takes only when the widget is made. Wraps `g_object_new_with_properties`.
  static func widget(_ type: GType, role: GtkAccessibleRole) -> Widget {
    var value = GValue()
    g_value_init(&value, gtk_accessible_role_get_type())
    g_value_set_enum(&value, gint(role.rawValue))
    defer { g_value_unset(&value) }
    let object = "accessible-role".withCString { name in
      var names: [UnsafePointer<CChar>?] = [name]
      return g_object_new_with_properties(type, 1, &names, &value)!
    }
    return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
  }

  /// Sets string properties of `widget` for assistive technologies (its
  /// label, its description). Wraps `gtk_accessible_update_property_value`.
  static func setAccessibleText(
    of widget: Widget, _ properties: [(GtkAccessibleProperty, String)]
  ) {
    var names = properties.map(\.0)
    var values = [GValue](repeating: GValue(), count: properties.count)
    for (index, property) in properties.enumerated() {
      // G_TYPE_STRING, a macro Swift does not import: fundamental type 16.
      g_value_init(&values[index], GType(16 << 2))
      g_value_set_string(&values[index], property.1)
    }
    gtk_accessible_update_property_value(
      OpaquePointer(widget), Int32(properties.count), &names, &values)
    for index in values.indices { g_value_unset(&values[index]) }
  }
}
