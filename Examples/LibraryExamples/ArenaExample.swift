import SecureMemory

/// The README's "Many secrets in one process" example.
func arenaTokens(tokenDescriptor: Int32) throws {
  let tokens = try SecureArena(name: "tenant tokens")  // 64 KiB slabs, secret memory
  var token = try SecureBuffer(capacity: 32, in: tokens)  // a 48-byte slot, no system call
  try token.read(from: tokenDescriptor, upTo: 32)  // every SecureBuffer API works the same
  print(token.protection.sharesPagesWithOtherSecrets)  // true: a window opens the whole page
  // Dropping it checks the slot's canaries and wipes it at once.
}
