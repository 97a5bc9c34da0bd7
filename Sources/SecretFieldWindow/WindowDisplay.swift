internal import CGtk
import SystemCalls

/// Opens the display the window goes on, once per process, and says which
/// one it tried and why it failed when it cannot.
///
/// GTK tries Wayland (`WAYLAND_DISPLAY`) and then X11 (`DISPLAY`), unless
/// `GDK_BACKEND` names one, and says nothing when both fail. So on a failure
/// the display's socket is tried directly: nothing listening there (no such
/// socket, or a refused connection) is said with the display's name and the
/// socket's path, and no retry is made. A server that accepts the connection
/// while GTK could not open the display is tried again, up to
/// ``attempts`` times: an X server with no client left resets itself
/// (Xvfb without `-noreset`, the usual case in scripts and tests), and a
/// client that connects during the reset is dropped with `ECONNRESET`.
enum WindowDisplay {
  /// How often the display is tried before giving up on a server that
  /// accepts connections.
  static let attempts = 10
  /// The pause between two tries, in microseconds: an Xvfb resets in a few
  /// milliseconds.
  static let pause: UInt32 = 100_000

  /// Whether GTK was initialized: `gtk_init_check` runs once, and a display
  /// it failed to open is opened with `gdk_display_open` after.
  nonisolated(unsafe) private static var gtkInitialized = false

  /// Opens the default display, if it is not open yet.
  ///
  /// - Throws: ``DisplayError`` naming each display tried, its socket and
  ///   why it could not be used.
  static func open(environmentValue: (String) -> String? = System.environmentValue)
    throws(DisplayError)
  {
    if gtkInitialized, gdk_display_get_default() != nil { return }
    if !gtkInitialized {
      gtkInitialized = true
      if gtk_init_check() != 0 { return }
    } else if openDefault() {
      return
    }
    let targets = DisplayTarget.targets(environmentValue: environmentValue)
    var probes = targets.map { $0.probe() }
    var tries = 1
    while tries < attempts, probes.contains(where: { $0 == nil }) {
      usleep(pause)
      if openDefault() { return }
      tries += 1
      probes = targets.map { $0.probe() }
    }
    throw DisplayError(targets: targets, probes: probes, tries: tries)
  }

  /// Opens the display GTK would (`gdk_display_open` with no name) and makes
  /// it the default one; false when it cannot.
  private static func openDefault() -> Bool {
    guard let display = gdk_display_open(nil) else { return false }
    if gdk_display_get_default() == nil {
      gdk_display_manager_set_default_display(gdk_display_manager_get(), display)
    }
    return true
  }
}

/// One display GTK would try: its kind, its name and the variable it came
/// from, and the socket its server listens on.
struct DisplayTarget: Sendable, Hashable {
  /// X11 or Wayland.
  enum Kind: Sendable, Hashable {
    case x11
    case wayland
  }

  var kind: Kind
  /// The display's name, as the variable gives it (`:1`, `wayland-0`).
  var name: String
  /// `DISPLAY` or `WAYLAND_DISPLAY`.
  var variable: String
  /// The socket of a local display; nil for one over TCP, or when it cannot
  /// be told (`WAYLAND_DISPLAY` relative with no `XDG_RUNTIME_DIR`).
  var socketPath: String?

  /// The displays GTK tries, in its order, from the environment: the
  /// Wayland one, then the X one, as far as `GDK_BACKEND` allows.
  static func targets(environmentValue: (String) -> String?) -> [DisplayTarget] {
    let backends = environmentValue("GDK_BACKEND").map { $0.split(separator: ",").map(String.init) }
    func allowed(_ name: String) -> Bool {
      guard let backends, !backends.isEmpty else { return true }
      return backends.contains(name) || backends.contains("*")
    }
    var targets: [DisplayTarget] = []
    if allowed("wayland"), let name = environmentValue("WAYLAND_DISPLAY"), !name.isEmpty {
      let socket =
        name.hasPrefix("/")
        ? name : environmentValue("XDG_RUNTIME_DIR").map { $0 + "/" + name }
      targets.append(
        DisplayTarget(kind: .wayland, name: name, variable: "WAYLAND_DISPLAY", socketPath: socket))
    }
    if allowed("x11"), let name = environmentValue("DISPLAY"), !name.isEmpty {
      targets.append(
        DisplayTarget(kind: .x11, name: name, variable: "DISPLAY", socketPath: xSocket(for: name)))
    }
    return targets
  }

  /// The socket of the X display `name` (`[HOST]:NUMBER[.SCREEN]`): the
  /// local one in `/tmp/.X11-unix` for no host or `unix`, the path itself
  /// for a path before the colon; nil for a display over TCP.
  static func xSocket(for name: String) -> String? {
    guard let colon = name.lastIndex(of: ":") else { return nil }
    let host = name[..<colon]
    let number = name[name.index(after: colon)...].prefix { $0.isNumber }
    if host.hasPrefix("/") { return String(host) }
    guard host.isEmpty || host == "unix", !number.isEmpty else { return nil }
    return "/tmp/.X11-unix/X\(number)"
  }

  /// Whether a server accepts connections on the socket: nil when one does
  /// (or for a display over TCP, which is not probed), else the errno.
  /// An X server listens at an abstract name as well as on the path, and
  /// Xlib tries that first: either answering is enough. A full backlog
  /// (`EAGAIN`, a server busy resetting) counts as listening.
  func probe() -> Errno? {
    guard let socketPath else { return nil }
    guard let failure = System.probeStreamSocket(socketPath), failure != .wouldBlock else {
      return nil
    }
    if kind == .x11 {
      let abstract = System.probeStreamSocket(socketPath, abstract: true)
      if abstract == nil || abstract == .wouldBlock { return nil }
    }
    return failure
  }
}

/// Why no display could be opened, naming each one tried.
package struct DisplayError: Error, Sendable, CustomStringConvertible {
  /// One sentence per display tried, or the lack of any.
  package let description: String

  init(targets: [DisplayTarget], probes: [Errno?], tries: Int) {
    guard !targets.isEmpty else {
      description =
        "no display to open: neither DISPLAY nor WAYLAND_DISPLAY is set (GDK_BACKEND may "
        + "exclude the one that is)"
      return
    }
    let reasons = zip(targets, probes).map { target, failure in
      let display =
        target.kind == .wayland
        ? "the Wayland display \(target.name)" : "the X display \(target.name)"
      let reason: String
      switch (target.socketPath, failure) {
      case (let path?, let failure?):
        reason = "nothing listens on \(path) (\(failure))"
      case (let path?, nil):
        reason =
          "its server at \(path) accepted the connection, but GTK could not open the display "
          + "in \(tries) tries (the server may refuse this client: its reason, if it gave one, "
          + "is above)"
      case (nil, _) where target.kind == .wayland:
        reason = "XDG_RUNTIME_DIR is not set, so its socket cannot be found"
      case (nil, _):
        reason = "GTK could not open it in \(tries) tries"
      }
      return "\(display) (\(target.variable)): \(reason)"
    }
    description = "cannot open " + reasons.joined(separator: "; nor ")
  }
}
