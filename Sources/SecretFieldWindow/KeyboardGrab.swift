internal import CGtk

/// The keyboard held for one window on X11, as gnome-ssh-askpass holds it: no
/// other client receives a key while the grab lasts, so a window that steals
/// the focus mid-password gets none of it, and a program that grabs the
/// keyboard itself to read keys cannot while the dialog is up.
///
/// GTK 4 reads keys through XInput 2, so the grab is an XInput 2 grab of the
/// keyboard device (`XIGrabDevice`): a core `XGrabKeyboard` would send the
/// keys as core events, which GTK 4 no longer reads. Wayland has no grabs;
/// there the compositor decides which window gets the keys.
final class KeyboardGrab {
  /// Why a grab was not had.
  enum Failure: Error, Equatable {
    /// Another client holds the keyboard (`AlreadyGrabbed`, `GrabFrozen`).
    case heldByAnotherClient
    /// The window never became viewable in time.
    case windowNotViewable
    /// The display is not an X11 display (Wayland).
    case notX11
  }

  private let display: OpaquePointer
  private let deviceID: Int32
  private let window: Window

  /// Grabs `keyboard` for the surface of `window`, trying again while the
  /// window is not viewable yet.
  static func grab(window: UnsafeMutablePointer<GtkWidget>, keyboard: OpaquePointer?) -> Result<
    KeyboardGrab, Failure
  > {
    guard let keyboard, let gdkDisplay = gdk_display_get_default(),
      g_type_check_instance_is_a(
        UnsafeMutableRawPointer(gdkDisplay).assumingMemoryBound(to: GTypeInstance.self),
        gdk_x11_display_get_type()) != 0,
      let native = gtk_widget_get_native(window),
      let surface = gtk_native_get_surface(native)
    else { return .failure(.notX11) }
    let xDisplay = gdk_x11_display_get_xdisplay(gdkDisplay)!
    let xWindow = gdk_x11_surface_get_xid(surface)
    let deviceID = gdk_x11_device_get_id(keyboard)
    var maskBytes = [UInt8](repeating: 0, count: Int((XI_LASTEVENT >> 3) + 1))
    for event in [XI_KeyPress, XI_KeyRelease, XI_FocusIn, XI_FocusOut] {
      maskBytes[Int(event >> 3)] |= UInt8(1 << (event & 7))
    }
    var failure = Failure.windowNotViewable
    for _ in 0..<40 {
      let status = maskBytes.withUnsafeMutableBufferPointer { bytes in
        var mask = XIEventMask(
          deviceid: deviceID, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
        return XIGrabDevice(
          xDisplay, deviceID, xWindow, UInt(CurrentTime), 0, GrabModeAsync, GrabModeAsync, 1,
          &mask)
      }
      if status == GrabSuccess {
        return .success(KeyboardGrab(display: xDisplay, deviceID: deviceID, window: xWindow))
      }
      if status == AlreadyGrabbed || status == GrabFrozen {
        failure = .heldByAnotherClient
      }
      // Not viewable yet, or held: the window may still be mapping, and a
      // grab held for a moment (a menu, a key repeat) may end.
      for _ in 0..<5 where g_main_context_pending(nil) != 0 { g_main_context_iteration(nil, 0) }
      g_usleep(25_000)
    }
    return .failure(failure)
  }

  private init(display: OpaquePointer, deviceID: Int32, window: Window) {
    self.display = display
    self.deviceID = deviceID
    self.window = window
  }

  /// Whether the X server's input focus is on the window. GDK reports a
  /// grabbing window as focused whatever the focus is (keys do come to it),
  /// so a click that gives another window the focus is seen only here.
  var windowHasInputFocus: Bool {
    var focus: Window = 0
    var revert: Int32 = 0
    XGetInputFocus(display, &focus, &revert)
    return focus == window
  }

  /// Lets the keyboard go; the window may be gone already.
  func release() {
    XIUngrabDevice(display, deviceID, UInt(CurrentTime))
    XFlush(display)
  }
}
