import Foundation
import ScreenRecording
import TestSupport
import Testing

/// The registry read from a real PipeWire daemon, started by the test in a
/// runtime directory of its own, with stand-in streams made by `pw-cli`.
@Suite(
  "PipeWireRegistry: a real daemon's streams, as they come and go",
  .enabled(
    if: PrivatePipeWire.isAvailable || requiresPipeWireTests,
    "needs pipewire and pipewire-bin (pw-cli) and SPA's video test source"))
struct PipeWireRegistryTests {
  @Test("a stand-in portal stream is seen, beside an audio stream and a camera that are not")
  func standInStreamSeen() throws {
    let daemon = try PrivatePipeWire()
    let audio = try daemon.start(.audioStream())
    let camera = try daemon.start(.camera())
    let registry = PipeWireRegistry(remote: daemon.socketPath)
    let watch = ScreenRecordingWatch(screencasts: registry)

    // The controls are listed: the registry sees the daemon's nodes.
    guard case .listed(let globals) = registry.read() else {
      Issue.record("the private daemon's registry was not read: \(registry.read())")
      return
    }
    #expect(Set(globals.map(\.id)).isSuperset(of: [audio.nodeID, camera.nodeID]))
    #expect(watch.screencastStream() == nil, "an audio stream and a camera are no screencast")

    let cast = try daemon.start(.portalScreencast())
    let seen = try Self.look(at: watch) { $0 != nil }
    #expect(seen?.source == .pipeWireNode(cast.nodeID))
    #expect(
      seen?.description
        == "a screencast through the desktop portal (PipeWire node \(cast.nodeID))")

    try cast.end()
    #expect(try Self.look(at: watch) { $0 == nil } == nil, "the stream gone, nothing is seen")
    guard case .listed(let remaining) = registry.read() else {
      Issue.record("the registry could not be read after the stream went")
      return
    }
    #expect(remaining.contains { $0.id == audio.nodeID }, "the control stays listed")
  }

  @Test("the daemon restarted: the registry connects again and sees the new one's streams")
  func daemonRestarted() throws {
    let daemon = try PrivatePipeWire()
    let registry = PipeWireRegistry(remote: daemon.socketPath)
    let watch = ScreenRecordingWatch(screencasts: registry)
    let before = try daemon.start(.portalScreencast())
    #expect(try Self.look(at: watch) { $0 != nil }?.source == .pipeWireNode(before.nodeID))

    try daemon.restart()
    // The old stream went with its daemon: the connection broke, and the
    // next looks connect to the new daemon, which has no screencast yet.
    #expect(try Self.look(at: watch) { $0 == nil } == nil)
    guard case .listed = registry.read() else {
      Issue.record("the new daemon's registry was not read: \(registry.read())")
      return
    }
    let after = try daemon.start(.portalScreencast())
    #expect(try Self.look(at: watch) { $0 != nil }?.source == .pipeWireNode(after.nodeID))
  }

  @Test("no daemon: unavailable, with the reason; the watch sees nothing")
  func noDaemon() {
    Self.expectUnavailable(
      PipeWireRegistry(remote: "/nonexistent/secretfield/pipewire-0"), mentioning: ["PipeWire"])
  }

  /// Checks that `registry` is unavailable for a reason that mentions each of
  /// `parts`, and that a watch over it sees no screencast.
  static func expectUnavailable(
    _ registry: PipeWireRegistry, mentioning parts: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .unavailable(let reason) = registry.read() else {
      Issue.record("an unavailable registry was listed", sourceLocation: sourceLocation)
      return
    }
    for part in parts {
      #expect(reason.contains(part), "\(reason)", sourceLocation: sourceLocation)
    }
    #expect(
      ScreenRecordingWatch(screencasts: registry).screencastStream() == nil,
      sourceLocation: sourceLocation)
  }

  @Test("no libpipewire: unavailable, with the loader's reason; the watch sees nothing")
  func noLibrary() {
    Self.expectUnavailable(
      PipeWireRegistry(library: "libsecretfield-no-such-pipewire.so.0"),
      mentioning: ["libpipewire could not be loaded", "libsecretfield-no-such-pipewire.so.0"])
    // The control: the real library still loads for another registry.
    let real = PipeWireRegistry(remote: "/nonexistent/secretfield/pipewire-0")
    guard case .unavailable(let other) = real.read() else { return }
    #expect(!other.contains("could not be loaded"), "\(other)")
  }

  /// Looks until `condition` holds for a look, and returns that look: the
  /// registry hears of a node a moment after `pw-cli` does. Throws after
  /// 60 s, a guard against a look that never comes.
  static func look(
    at watch: ScreenRecordingWatch,
    until condition: (ScreenRecordingWatch.Sighting?) -> Bool
  ) throws -> ScreenRecordingWatch.Sighting? {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let sighting = watch.screencastStream()
      if condition(sighting) { return sighting }
      usleep(10_000)
    }
    throw LookTimedOut()
  }

  struct LookTimedOut: Error {}
}

/// `SECRETFIELD_REQUIRE_WINDOW_TESTS=1` (Scripts/test sets it) makes these
/// tests run, and fail, where PipeWire is missing.
let requiresPipeWireTests =
  ProcessInfo.processInfo.environment["SECRETFIELD_REQUIRE_WINDOW_TESTS"] == "1"
