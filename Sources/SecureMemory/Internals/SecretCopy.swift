import CSystemShims

/// Moves secret bytes between two places in secure memory, overlapping or not,
/// without leaving them in vector registers (see `secretfield_move_bytes` in the
/// C shim: a later register spill would copy them onto the stack).
///
/// Every copy of secret bytes in `SecureMemory` goes through here.
func moveSecretBytes(
  to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int
) {
  secretfield_move_bytes(destination, source, count)
}

/// The offset of the first `byte` in the `count` bytes at `start`, or `count`
/// when there is none, found with `repne scasb` (see `secretfield_find_byte`:
/// `memchr` would load the secret bytes it passes into vector registers).
func firstOffsetOfSecretByte(_ byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int {
  secretfield_find_byte(start, count, byte)
}
