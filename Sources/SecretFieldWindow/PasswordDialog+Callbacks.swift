internal import CGtk
import SecretField

/// The C callbacks GTK and GLib call, each with the dialog as its user data.
extension PasswordDialog {
  static func dialog(_ context: gpointer?) -> PasswordDialog {
    Unmanaged<PasswordDialog>.fromOpaque(context!).takeUnretainedValue()
  }

  static let onKeyPressed:
    @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
      _, keyval, _, state, context in
      dialog(context).keyPressed(keyval, state) ? 1 : 0
    }

  static let onCommit: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, gpointer?) -> Void = {
    _, text, context in
    guard let text else { return }
    dialog(context).commit(text)
  }

  static let onRecordingCheck: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).checkRecording()
    return 1
  }

  static let onStrengthJudgement: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).judgeStrength()
    return 0
  }

  static let onTimeout: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).end(.ended(.timedOut))
    return 0
  }

  static let onReaderGone: @convention(c) (Int32, GIOCondition, gpointer?) -> gboolean = {
    _, _, context in
    dialog(context).end(.ended(.hungUp))
    return 0
  }

  static let onCloseRequest: @convention(c) (Gtk.Widget?, gpointer?) -> gboolean = {
    _, context in
    dialog(context).end(.ended(.cancelled(.button)))
    return 1
  }

  static let onActiveChanged: @convention(c) (Gtk.Widget?, OpaquePointer?, gpointer?) -> Void = {
    _, _, context in
    dialog(context).updateFocus()
  }

  static let onFocusWidgetChanged: @convention(c) (Gtk.Widget?, OpaquePointer?, gpointer?) -> Void =
    { _, _, context in
      dialog(context).focusChanged()
    }

  static let onFocusCheck: @convention(c) (gpointer?) -> gboolean = { context in
    dialog(context).updateFocus()
    return 1
  }

  static let onCapsLockChanged: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void =
    { _, _, context in
      let dialog = dialog(context)
      dialog.updateCapsLock()
      dialog.redraw()
    }

  static let onShortcutsInhibitedChanged:
    @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, context in
      dialog(context).shortcutsInhibitionChanged()
    }

  static let onToplevelStateChanged:
    @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, context in
      dialog(context).updateFocus()
    }

  static let onAfterPaint: @convention(c) (OpaquePointer?, gpointer?) -> Void = {
    _, context in
    dialog(context).logFrame()
  }

  static let onDraw:
    @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?)
      -> Void = {
        _, cairo, width, height, context in
        guard let cairo else { return }
        dialog(context).draw(cairo, width: width, height: height)
      }

  static let onFieldClicked:
    @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = {
      _, _, _, _, context in
      dialog(context).focusPassword()
    }

  static let onRevealClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).toggleReveal()
  }

  static let onCancelClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).end(.ended(.cancelled(.button)))
  }

  static let onNotOKClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).end(.ended(.declined))
  }

  static let onOKClicked: @convention(c) (Gtk.Widget?, gpointer?) -> Void = {
    _, context in
    dialog(context).submit()
  }
}
