/// What PipeWire's registry lists now, or why it could not be read.
package enum PipeWireRegistryState: Sendable, Hashable {
  /// Every node and client the daemon had, and what came and went since.
  case listed([PipeWireGlobal])
  /// The registry could not be read: no libpipewire, no daemon, or a daemon
  /// that did not answer. `reason` says which.
  case unavailable(reason: String)
}
