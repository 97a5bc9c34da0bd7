/// Zeroes `byteCount` bytes of the stack below the caller (`sodium_stackzero`).
///
/// Call it after Swift code that computed on secret bytes (decoding scalars for
/// grapheme breaking, measuring widths): an optimised loop may have spilled them
/// into stack slots that outlive it. The residue tests prove each such path.
///
/// Inside one of the package's own scopes that gather wipes (a key decoder's
/// handler), it notes the reach instead, for the scope's one wipe at its end.
public func wipeStack(byteCount: Int = 16 * 1024) {
  if StackWipeScope.note(byteCount) { return }
  Sodium.zeroStack(byteCount)
}
