/// Zeroes `byteCount` bytes of the stack below the caller (`sodium_stackzero`).
///
/// Call it after Swift code that computed on secret bytes (decoding scalars for
/// grapheme breaking, measuring widths): an optimised loop may have spilled them
/// into stack slots that outlive it. The residue tests prove each such path.
public func wipeStack(byteCount: Int = 16 * 1024) {
  Sodium.zeroStack(byteCount)
}
