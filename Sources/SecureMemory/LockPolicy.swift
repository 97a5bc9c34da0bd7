/// What a ``SecureBuffer`` does when a protection cannot be had.
public enum LockPolicy: Sendable, Hashable {
  /// Refuse the buffer: `init` throws ``SecureMemoryError`` when the pages cannot
  /// be locked, guarded, excluded from core dumps or wiped on fork. The default.
  case required
  /// Hand out the buffer anyway and say what is missing in
  /// ``SecureBuffer/protection``.
  case bestEffort
}
