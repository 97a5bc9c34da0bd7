/// The streams a screencast makes in PipeWire, and how to tell them from
/// the others in the registry.
///
/// When a program asks the desktop portal to share the screen, the portal's
/// backend (or the compositor, for GNOME, KDE and niri) makes a PipeWire
/// stream that gives the screen's frames, and the program reads that node.
/// No process of the program's shows it, but the node is in the registry
/// for as long as the screencast lasts, with (media class, `node.name`, the
/// stream's own name):
///
/// - xdg-desktop-portal-wlr (sway, Wayfire, river, labwc, LXQt):
///   `Video/Source`, `xdg-desktop-portal-wlr`, `xdpw-stream-XXXXXX`;
/// - xdg-desktop-portal-hyprland: `Video/Source`, `xdg-desktop-portal-hyprland`,
///   `xdph-streaming-…`;
/// - xdg-desktop-portal-cosmic: `Video/Source`, `cosmic-screenshot`,
///   `cosmic-screenshot`;
/// - GNOME Shell (mutter): `Stream/Output/Video`, `gnome-shell`,
///   `meta-screen-cast-src`;
/// - KWin: `Stream/Output/Video`, `kwin_wayland`, `kwin-screencast-…`;
/// - niri: `Stream/Output/Video`, `niri`, `niri-screen-cast-src`.
///
/// A stream's `node.name` is its program's `application.name` unless the
/// program names the node (PipeWire's `pw_stream_new`); the stream name is
/// kept as `node.name` when the program has no name, and is not among the
/// properties the registry shows otherwise. A camera is a `Video/Source`
/// too, but made by the session manager from a device (`v4l2_input.…`,
/// `libcamera_input.…`): the class alone does not tell.
package enum PortalScreencasts {
  /// The media classes of a node that gives video to others: a source
  /// (`Video/Source`, as wlroots' and Hyprland's backends declare their
  /// streams) or an output stream (`Stream/Output/Video`, which PipeWire
  /// gives a video stream that declares no class).
  package static let videoSourceClasses: Set<String> = ["Video/Source", "Stream/Output/Video"]

  /// The programs that make screencast streams, by the name PipeWire gives
  /// their nodes and connections (`node.name`, `application.name`).
  package static let providers: Set<String> = [
    "xdg-desktop-portal-wlr", "xdg-desktop-portal-hyprland", "xdg-desktop-portal-cosmic",
    "cosmic-screenshot", "gnome-shell", "kwin_wayland", "niri",
  ]

  /// The streams' own names, which a node carries as `node.name` when its
  /// program has no name of its own.
  package static let streamNamePrefixes = [
    "xdpw-stream-", "xdph-streaming-", "meta-screen-cast-src", "kwin-screencast-",
    "niri-screen-cast-src",
  ]

  /// The screencast streams among `globals`, by node id: the nodes of a
  /// video source class whose name, or whose client's name, is a
  /// provider's (``providers``, ``streamNamePrefixes``, or `additional`).
  ///
  /// - Parameter additional: names of more programs, matched as the
  ///   providers are: a site's own (`SECRETFIELD_SCREEN_RECORDERS`).
  /// - Complexity: O(n) in the number of globals.
  package static func streams(
    in globals: [PipeWireGlobal], additional: [String] = []
  ) -> [PipeWireGlobal] {
    var clients: [String: PipeWireGlobal] = [:]
    for global in globals where global.type == PipeWireGlobal.client {
      clients[String(global.id)] = global
    }
    return
      globals
      .filter { node in
        guard node.type == PipeWireGlobal.node,
          let mediaClass = node.properties["media.class"],
          videoSourceClasses.contains(mediaClass)
        else { return false }
        let client = node.properties["client.id"].flatMap { clients[$0] }
        let names = [
          node.properties["node.name"], node.properties["application.name"],
          client?.properties["application.name"],
        ]
        return names.contains { $0.map { isProvider($0, additional: additional) } ?? false }
      }
      .sorted { $0.id < $1.id }
  }

  /// Whether `name` is a screencast provider's, or a stream's own name.
  static func isProvider(_ name: String, additional: [String]) -> Bool {
    providers.contains(name) || additional.contains(name)
      || streamNamePrefixes.contains { name.hasPrefix($0) }
  }
}
