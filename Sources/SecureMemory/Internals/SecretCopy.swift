import CSodium

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
