import ScreenRecording

/// `screencast_look` and `screencast_first_look`: what the window's recording
/// watch pays to look for a screencast of the desktop portal in PipeWire's
/// registry, beside running `pw-cli -r SOCKET ls Node` (the tools' way of
/// reading the same registry: a process, a connection and a roundtrip) and
/// reading its listing.
///
/// A private daemon (``PipeWireDaemon``) lists a stand-in portal stream, an
/// audio stream and a camera.
/// - `screencast_look`: `ScreenRecordingWatch.screencastStream()` with the
///   registry connected, as every look after the first: libpipewire's loop
///   dispatched without waiting, then the nodes sorted out.
/// - `screencast_first_look`: a new `PipeWireRegistry` read once (its
///   context, the connection, the daemon's list), libpipewire already
///   loaded, as the first look of a dialog.
struct ScreencastLookBenchmarks: BenchmarkGroup {
  let names = ["screencast_look", "screencast_first_look"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    guard let daemon = PipeWireDaemon.start() else { return [] }
    let watch = ScreenRecordingWatch(screencasts: PipeWireRegistry(remote: daemon.socketPath))
    guard watch.screencastStream() != nil else {
      printNotice("skipped the screencast benchmarks: the stand-in stream was not seen")
      return []
    }
    let tool = "pw-cli ls Node run and read"
    let looks = sampler.forSlowOperations.measure(["look", "tool"]) { variant, iterations in
      for _ in 0..<iterations {
        if variant == 0 {
          blackhole(watch.screencastStream()?.description.utf8.count ?? 0)
        } else {
          blackhole(daemon.listNodesWithTool())
        }
      }
    }
    var registry: PipeWireRegistry?
    let firstLooks = sampler.forSlowOperations.measureSingleIterations(
      ["first look", "tool"],
      prepare: { variant in
        if variant == 0 { registry = PipeWireRegistry(remote: daemon.socketPath) }
      },
      run: { variant in
        if variant == 0 {
          if case .listed(let globals) = registry?.read() { blackhole(globals.count) }
        } else {
          blackhole(daemon.listNodesWithTool())
        }
      },
      finish: { _ in registry = nil })
    return [
      .timed(
        "screencast_look", looks[0], baseline: (tool, looks[1]),
        note: "a look with the registry connected: one non-blocking dispatch, then the"
          + " nodes sorted; the tool starts a process and connects each time"),
      .timed(
        "screencast_first_look", firstLooks[0], baseline: (tool, firstLooks[1]),
        note: "a new registry's first read (context, connection, the daemon's list),"
          + " libpipewire already loaded; its client freed outside the clock"),
    ]
  }
}
