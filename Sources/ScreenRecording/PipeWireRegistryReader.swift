/// Where ``ScreenRecordingWatch`` reads PipeWire's registry from.
/// ``PipeWireRegistry`` reads the daemon of this session; a test gives a
/// registry of its own.
package protocol PipeWireRegistryReader: AnyObject {
  /// The nodes and clients the registry lists now.
  func read() -> PipeWireRegistryState
}
