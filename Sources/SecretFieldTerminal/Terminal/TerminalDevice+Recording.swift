package import ScreenRecording

extension TerminalDevice {
  /// Whether this terminal's session is being recorded, as far as Linux lets
  /// a program see it: set the field's `isCaptured` from
  /// ``RecordingDetection/isCaptured`` and show ``RecordingDetection/reason``
  /// when reveal is refused. See `RecordingDetector` for what is looked at
  /// and what cannot be seen.
  ///
  /// - Complexity: see `RecordingDetector`: `/proc` reads, and one run of
  ///   `tmux` inside tmux.
  package func detectRecording(
    with detector: RecordingDetector = RecordingDetector()
  ) -> RecordingDetection {
    detector.detect(terminal: descriptor)
  }
}
