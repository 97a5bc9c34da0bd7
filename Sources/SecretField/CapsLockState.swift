/// What the front end knows about the caps-lock key.
public enum CapsLockState: Sendable, Hashable {
  /// Caps lock is on: the field shows a hint.
  case on
  /// Caps lock is off.
  case off
  /// The front end cannot tell (a terminal usually cannot): no hint.
  case unknown
}
