import SystemCalls

/// Looks, when asked, for a program capturing the screen this window is on,
/// as far as `/proc` shows it: a known screen recorder or a grabbing FFmpeg or
/// GStreamer among the processes this one may see, or a terminal recorder
/// (``RecordingDetector/knownRecorders``) among this process's ancestors.
///
/// It cannot see a recorder in another user's session or PID namespace, a
/// process `/proc` hides (`hidepid`), a compositor's own recording other than
/// GNOME Shell's, a browser or video call sharing the screen, a remote-desktop
/// server, or a camera or capture card pointed at the screen.
package struct ScreenRecordingWatch: Sendable {
  /// A recorder that was seen.
  package struct Sighting: Sendable, Hashable, CustomStringConvertible {
    /// What it is, as a person would name it.
    package var recorder: String
    package var processID: Int32

    package var description: String { "\(recorder) (process \(processID))" }
  }

  /// The variable that names more recorders, separated by `:`.
  package static let additionalRecordersVariable = "SECRETFIELD_SCREEN_RECORDERS"

  /// Names of recorders the built-in list does not know, matched as the
  /// dedicated ones are (``ScreenRecorders/dedicated``).
  package var additionalRecorders: [String]
  private let inspector = LiveSessionInspector()

  /// A watch for the known recorders and `additionalRecorders`.
  package init(additionalRecorders: [String] = []) {
    self.additionalRecorders = additionalRecorders
  }

  /// A watch for the known recorders and those
  /// ``additionalRecordersVariable`` names.
  package static func configured() -> ScreenRecordingWatch {
    let names = System.environmentValue(additionalRecordersVariable) ?? ""
    return ScreenRecordingWatch(
      additionalRecorders: names.split(separator: ":").map(String.init))
  }

  /// The first recorder seen, or nil.
  ///
  /// - Complexity: one read of `/proc/PID/comm` per process, and of its
  ///   command line for a candidate (``ScreenRecorders/isCandidate(name:)``);
  ///   about 3 ms for 300 processes.
  package func look() -> Sighting? {
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
      return Sighting(recorder: recorder, processID: processID)
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
        return Sighting(recorder: recorder, processID: processID)
      }
      guard entry.parentID > 1 else { return nil }
      processID = entry.parentID
    }
    return nil
  }
}
