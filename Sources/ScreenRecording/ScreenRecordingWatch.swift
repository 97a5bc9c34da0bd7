import SystemCalls

/// Looks, when asked, for a program capturing the screen this window is on,
/// as far as Linux shows it: a known screen recorder or a grabbing FFmpeg or
/// GStreamer among the processes `/proc` lets this one see, a terminal
/// recorder (``RecordingDetector/knownRecorders``) among this process's
/// ancestors, or a screencast stream of the desktop portal in PipeWire's
/// registry (``PortalScreencasts``): how a browser, a video call or OBS
/// shares a Wayland screen.
///
/// It cannot see a recorder in another user's session or PID namespace, a
/// process `/proc` hides (`hidepid`), a compositor's own capture that makes
/// no PipeWire stream (wlroots' screencopy used directly, as `grim` and
/// `wf-recorder` do, seen only by their process names), a screencast of
/// another session's PipeWire, a remote-desktop server that captures
/// without the portal, or a camera or capture card pointed at the screen.
package struct ScreenRecordingWatch {
  /// A recorder that was seen.
  package struct Sighting: Sendable, Hashable, CustomStringConvertible {
    /// Where a sighting was made.
    package enum Source: Sendable, Hashable {
      /// A process, by its ID.
      case process(Int32)
      /// A PipeWire stream, by its node id.
      case pipeWireNode(UInt32)
    }

    /// What it is, as a person would name it.
    package var recorder: String
    package var source: Source

    /// A sighting from its parts.
    package init(recorder: String, source: Source) {
      self.recorder = recorder
      self.source = source
    }

    /// "obs (process 812)", "a screencast through the desktop portal
    /// (PipeWire node 42)".
    package var description: String {
      switch source {
      case .process(let processID): "\(recorder) (process \(processID))"
      case .pipeWireNode(let nodeID): "\(recorder) (PipeWire node \(nodeID))"
      }
    }
  }

  /// The variable that names more recorders, separated by `:`.
  package static let additionalRecordersVariable = "SECRETFIELD_SCREEN_RECORDERS"

  /// What a screencast stream is called in a sighting.
  package static let portalScreencast = "a screencast through the desktop portal"

  /// Names of recorders the built-in list does not know, matched as the
  /// dedicated ones are (``ScreenRecorders/dedicated``), and as the programs
  /// that make screencast streams are (``PortalScreencasts/providers``).
  package var additionalRecorders: [String]
  /// Where screencast streams are looked for; nil looks for none.
  package var screencasts: (any PipeWireRegistryReader)?
  private let inspector = LiveSessionInspector()

  /// A watch for the known recorders and `additionalRecorders`, and for the
  /// screencasts `screencasts` lists (this session's PipeWire unless given).
  package init(
    additionalRecorders: [String] = [],
    screencasts: (any PipeWireRegistryReader)? = PipeWireRegistry()
  ) {
    self.additionalRecorders = additionalRecorders
    self.screencasts = screencasts
  }

  /// A watch for the known recorders and those
  /// ``additionalRecordersVariable`` names, and for this session's
  /// screencasts.
  package static func configured() -> ScreenRecordingWatch {
    let names = System.environmentValue(additionalRecordersVariable) ?? ""
    return ScreenRecordingWatch(
      additionalRecorders: names.split(separator: ":").map(String.init))
  }

  /// The first recorder seen, or nil: a recorder's process, then a
  /// screencast stream.
  ///
  /// - Complexity: one read of `/proc/PID/comm` per process, and of its
  ///   command line for a candidate (``ScreenRecorders/isCandidate(name:additional:)``):
  ///   about 3 ms for 300 processes; then ``screencastStream()``.
  package func look() -> Sighting? {
    lookForRecorder() ?? screencastStream()
  }

  /// The first screencast stream in PipeWire's registry, by node id, or nil
  /// (also when the registry cannot be read).
  ///
  /// - Complexity: see ``PipeWireRegistry/read()``; with the registry
  ///   connected, about 20 µs for a registry of a few nodes
  ///   (`screencast_look` in the benchmarks), where running `pw-cli ls Node`
  ///   costs 4.4 ms.
  package func screencastStream() -> Sighting? {
    guard case .listed(let globals)? = screencasts?.read(),
      let stream = PortalScreencasts.streams(in: globals, additional: additionalRecorders).first
    else { return nil }
    return Sighting(recorder: Self.portalScreencast, source: .pipeWireNode(stream.id))
  }

  /// A recorder among the processes, or among this process's ancestors.
  private func lookForRecorder() -> Sighting? {
    let selfID = inspector.currentProcessID
    if let sighting = recorderAmongAncestors(of: selfID) { return sighting }
    guard case .success(let names) = System.directoryEntries("/proc") else { return nil }
    for name in names {
      guard let processID = Int32(name), processID != selfID,
        case .success(let comm) = System.readFile("/proc/\(name)/comm", limit: 64)
      else { continue }
      let processName = String(decoding: comm.prefix { $0 != 0x0A }, as: UTF8.self)
      guard ScreenRecorders.isCandidate(name: processName, additional: additionalRecorders),
        let entry = inspector.entry(ofProcess: processID),
        let recorder = ScreenRecorders.recorder(in: entry, additional: additionalRecorders)
      else { continue }
      return Sighting(recorder: recorder, source: .process(processID))
    }
    return nil
  }

  /// A terminal recorder the window was started under (the askpass of a
  /// recorded terminal session), which may record what follows it.
  private func recorderAmongAncestors(of start: Int32) -> Sighting? {
    var processID = start
    for _ in 0..<1024 {
      guard let entry = inspector.entry(ofProcess: processID) else { return nil }
      if processID != start,
        let recorder = RecordingDetector.recorder(in: entry)
          ?? ScreenRecorders.recorder(in: entry, additional: additionalRecorders)
      {
        return Sighting(recorder: recorder, source: .process(processID))
      }
      guard entry.parentID > 1 else { return nil }
      processID = entry.parentID
    }
    return nil
  }
}
