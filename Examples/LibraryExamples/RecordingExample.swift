import SecretField
import SecretFieldTerminal

/// The README's recording detection.
func recording(field: inout SecretFieldState) throws {
  let terminal = try TerminalDevice()  // /dev/tty
  let recording = terminal.detectRecording()  // RecordingDetector().detect(terminal:)
  field.isCaptured = recording.isCaptured
  if let reason = recording.reason { show(reason) }  // "asciinema is recording this terminal"
  print(recording)  // every piece of evidence, and what could not be checked
}
