/// Overwrites `bytes` with zeros in a way the compiler may not remove.
///
/// For ordinary memory that held a secret before it reached a ``SecureBuffer``:
/// a host framework's text buffer, an environment block, bytes a C library
/// handed over. Copy the bytes into secure memory first, then wipe them here.
/// A Swift `String` or `Array` cannot be wiped this way: its storage may have
/// been copied already, which is why secrets never go into one.
///
/// Wraps `sodium_memzero`.
///
/// - Complexity: O(`bytes.count`).
public func secureZero(_ bytes: UnsafeMutableRawBufferPointer) {
  guard let base = bytes.baseAddress, bytes.count > 0 else { return }
  Sodium.zero(base, count: bytes.count)
}
