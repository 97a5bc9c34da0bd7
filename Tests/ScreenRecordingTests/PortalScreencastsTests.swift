import ScreenRecording
import Testing

/// A registry the test makes up, as ``PipeWireRegistry`` would list it.
final class FakeRegistry: PipeWireRegistryReader {
  var state: PipeWireRegistryState
  private(set) var reads = 0

  init(_ state: PipeWireRegistryState) { self.state = state }

  func read() -> PipeWireRegistryState {
    reads += 1
    return state
  }
}

/// A node, with the properties PipeWire's registry shows for it.
func node(
  _ id: UInt32, _ mediaClass: String, name: String, client: UInt32? = nil,
  application: String? = nil
) -> PipeWireGlobal {
  var properties = ["media.class": mediaClass, "node.name": name, "object.serial": "\(id + 1)"]
  properties["client.id"] = client.map(String.init)
  properties["application.name"] = application
  return PipeWireGlobal(id: id, type: PipeWireGlobal.node, properties: properties)
}

/// A connection to the daemon, named as its program's context names it.
func client(_ id: UInt32, application: String, processID: Int32 = 4242) -> PipeWireGlobal {
  PipeWireGlobal(
    id: id, type: PipeWireGlobal.client,
    properties: [
      "application.name": application, "pipewire.sec.pid": "\(processID)",
      "pipewire.protocol": "protocol-native",
    ])
}

/// A desktop's registry with no screencast: a session manager that made a
/// camera and a sound card, a browser playing sound and reading the camera.
let quietDesktop: [PipeWireGlobal] = [
  client(30, application: "WirePlumber"),
  node(40, "Video/Source", name: "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0", client: 30),
  node(41, "Audio/Sink", name: "alsa_output.pci-0000_00_1f.3.analog-stereo", client: 30),
  client(50, application: "Firefox"),
  node(51, "Stream/Output/Audio", name: "Firefox", client: 50),
  node(52, "Stream/Input/Video", name: "Firefox", client: 50),
]

/// Which PipeWire nodes count as a screencast, over registries the test makes
/// up from what the portals' sources give their streams.
@Suite("Portal screencasts: a video stream of a screencast provider, and nothing else")
struct PortalScreencastsTests {
  func streams(_ globals: [PipeWireGlobal], additional: [String] = []) -> [UInt32] {
    PortalScreencasts.streams(in: globals, additional: additional).map(\.id)
  }

  @Test(
    "each portal backend's and compositor's stream counts",
    arguments: [
      // xdg-desktop-portal-wlr and -hyprland: Video/Source, named after the program.
      ("wlr", node(60, "Video/Source", name: "xdg-desktop-portal-wlr", client: 59)),
      ("hyprland", node(60, "Video/Source", name: "xdg-desktop-portal-hyprland", client: 59)),
      // xdg-desktop-portal-cosmic names its node.
      ("cosmic", node(60, "Video/Source", name: "cosmic-screenshot", client: 59)),
      // mutter, KWin and niri declare no class: PipeWire calls it an output stream.
      ("GNOME", node(60, "Stream/Output/Video", name: "gnome-shell", client: 59)),
      ("KDE", node(60, "Stream/Output/Video", name: "kwin_wayland", client: 59)),
      ("niri", node(60, "Stream/Output/Video", name: "niri", client: 59)),
      // A program with no name: the node takes the stream's.
      ("unnamed wlr", node(60, "Video/Source", name: "xdpw-stream-a1B2c3", client: 59)),
      ("unnamed KWin", node(60, "Stream/Output/Video", name: "kwin-screencast-DP-1", client: 59)),
    ])
  func providersStreams(_ provider: String, _ stream: PipeWireGlobal) {
    #expect(streams(quietDesktop) == [], "the control: a desktop with no screencast")
    #expect(streams(quietDesktop + [client(59, application: "some-portal"), stream]) == [60])
  }

  @Test("a node the provider names otherwise counts by its client's name")
  func byClientName() {
    let portal = client(59, application: "xdg-desktop-portal-wlr")
    let stream = node(60, "Video/Source", name: "screen-0", client: 59)
    #expect(streams(quietDesktop + [portal, stream]) == [60])
    // The control: the same node from a client of another name.
    #expect(streams(quietDesktop + [client(59, application: "obs"), stream]) == [])
  }

  @Test("the controls: the portal's own audio, a camera, a browser reading a stream")
  func notScreencasts() {
    let portal = client(59, application: "xdg-desktop-portal-wlr")
    // Same names as a screencast; only the class differs.
    #expect(
      streams(
        quietDesktop + [
          portal, node(60, "Stream/Output/Audio", name: "xdg-desktop-portal-wlr", client: 59),
        ])
        == [])
    #expect(
      streams(
        quietDesktop + [
          portal, node(60, "Stream/Input/Video", name: "xdg-desktop-portal-wlr", client: 59),
        ])
        == [])
    // A camera and a virtual camera are video sources from other programs.
    #expect(streams(quietDesktop + [node(61, "Video/Source", name: "OBS Virtual Camera")]) == [])
    // A client's name alone, with no video node, is no screencast.
    #expect(streams(quietDesktop + [portal]) == [])
  }

  @Test("SECRETFIELD_SCREEN_RECORDERS names more providers")
  func additionalProviders() {
    let stream = node(60, "Video/Source", name: "xdg-desktop-portal-luminous", client: 59)
    #expect(streams(quietDesktop + [stream]) == [])
    #expect(streams(quietDesktop + [stream], additional: ["xdg-desktop-portal-luminous"]) == [60])
  }

  @Test("several streams: every one, by node id")
  func severalStreams() {
    let globals =
      quietDesktop + [
        node(90, "Stream/Output/Video", name: "gnome-shell"),
        node(70, "Stream/Output/Video", name: "gnome-shell"),
      ]
    #expect(streams(globals) == [70, 90])
  }
}

/// The watch's screencast half, over a registry the test makes up.
@Suite("ScreenRecordingWatch: a portal screencast is a sighting, named by its node")
struct ScreenRecordingWatchScreencastTests {
  @Test("a portal stream in the registry: the sighting names it and its node")
  func sighting() throws {
    let registry = FakeRegistry(
      .listed(quietDesktop + [node(77, "Video/Source", name: "xdg-desktop-portal-wlr")]))
    let watch = ScreenRecordingWatch(screencasts: registry)
    let sighting = try #require(watch.screencastStream())
    #expect(sighting.source == .pipeWireNode(77))
    #expect(sighting.description == "a screencast through the desktop portal (PipeWire node 77)")
    #expect(registry.reads == 1)
  }

  @Test("the stream gone: no sighting at the next look")
  func streamGone() {
    let registry = FakeRegistry(
      .listed(quietDesktop + [node(77, "Stream/Output/Video", name: "kwin_wayland")]))
    let watch = ScreenRecordingWatch(screencasts: registry)
    #expect(watch.screencastStream() != nil)
    registry.state = .listed(quietDesktop)
    #expect(watch.screencastStream() == nil)
    #expect(registry.reads == 2)
  }

  @Test("the controls: a quiet desktop, an unreadable registry, no registry: no sighting")
  func nothingSeen() {
    #expect(
      ScreenRecordingWatch(screencasts: FakeRegistry(.listed(quietDesktop))).screencastStream()
        == nil)
    let unreadable = FakeRegistry(.unavailable(reason: "no PipeWire daemon runs in this session"))
    #expect(ScreenRecordingWatch(screencasts: unreadable).screencastStream() == nil)
    #expect(ScreenRecordingWatch(screencasts: nil).screencastStream() == nil)
  }

  @Test("a recorder's sighting names its process")
  func processSighting() {
    let sighting = ScreenRecordingWatch.Sighting(recorder: "obs", source: .process(812))
    #expect(sighting.description == "obs (process 812)")
  }
}
