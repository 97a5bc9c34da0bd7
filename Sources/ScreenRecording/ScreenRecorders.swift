/// The programs that capture the screen, and how to tell them from their
/// process: by name, or, for a general tool, by the capture it was told to do.
package enum ScreenRecorders {
  /// Programs that exist to record or stream the screen, by the names their
  /// processes carry: OBS Studio, wf-recorder, SimpleScreenRecorder, Peek,
  /// Kazam, vokoscreen and vokoscreenNG, gpu-screen-recorder, Kooha,
  /// recordMyDesktop, byzanz, wl-screenrec and Green Recorder.
  package static let dedicated = [
    "obs", "wf-recorder", "simplescreenrecorder", "peek", "kazam", "vokoscreen", "vokoscreenNG",
    "gpu-screen-recorder", "kooha", "recordmydesktop", "byzanz-record", "wl-screenrec",
    "green-recorder",
  ]

  /// General tools, and the arguments that make them grab the screen:
  /// FFmpeg's X11, XCB and KMS grabbers, GStreamer's X11 and PipeWire
  /// sources (a portal screencast reaches GStreamer through `pipewiresrc`).
  package static let grabbingArguments: [String: [String]] = [
    "ffmpeg": ["x11grab", "xcbgrab", "kmsgrab"],
    "avconv": ["x11grab", "xcbgrab", "kmsgrab"],
    "gst-launch-1.0": ["ximagesrc", "pipewiresrc"],
  ]

  /// The script GNOME Shell runs (with `gjs`) while it records the screen
  /// (Ctrl+Shift+Alt+R, or its screenshot UI's recorder).
  package static let gnomeShellScreencast = "org.gnome.Shell.Screencast"

  /// The names worth reading a command line for: a dedicated recorder's
  /// (cut to 15 bytes, as the kernel keeps it), a general tool's, and
  /// interpreters, which may run a recorder written as a script.
  ///
  /// - Parameter additional: names of more recorders, as
  ///   ``recorder(in:additional:)`` takes them.
  package static func isCandidate(name: String, additional: [String] = []) -> Bool {
    RecordingDetector.isInterpreter(name) || name.hasPrefix("gjs")
      || grabbingArguments[name] != nil
      || (dedicated + additional).contains {
        $0 == name || ($0.utf8.count > 15 && $0.hasPrefix(name))
      }
  }

  /// The recorder `entry` is, if any, as a name to show.
  ///
  /// - Parameter additional: names of more recorders, matched as the
  ///   dedicated ones are: a site's own (`SECRETFIELD_SCREEN_RECORDERS`).
  /// - Complexity: O(length of the command line).
  package static func recorder(in entry: ProcessEntry, additional: [String] = []) -> String? {
    if let recorder = RecordingDetector.recorder(in: entry, among: dedicated + additional) {
      return recorder
    }
    let program = entry.arguments.first.map(RecordingDetector.fileName) ?? entry.name
    for tool in [entry.name, program] {
      if let grabbers = grabbingArguments[tool],
        entry.arguments.dropFirst().contains(where: { argument in
          grabbers.contains { argument.hasPrefix($0) }
        })
      {
        return tool
      }
    }
    if entry.arguments.contains(where: { RecordingDetector.fileName($0) == gnomeShellScreencast }) {
      return "GNOME Shell's screencast"
    }
    return nil
  }
}
