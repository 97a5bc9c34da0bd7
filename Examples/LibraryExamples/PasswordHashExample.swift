import SecureMemory

/// The README's password hashes.
func hashes(
  password: borrowing SecureBuffer, attempt: borrowing SecureBuffer, loadedString: String
) throws {
  let hash = try PasswordHash(hashing: password)  // Argon2id, .interactive
  store(hash.string)  // "$argon2id$v=19$m=65536,t=2,p=1$…"

  let stored = try PasswordHash(loadedString)  // throws malformedHash
  if try PasswordHash.verify(attempt, against: stored) {
    if PasswordHash.needsRehash(stored, strength: .interactive) {
      store(try PasswordHash(hashing: attempt).string)  // upgrade while you have it
    }
  }
}

/// The README's process hardening.
func hardening() {
  let report = ProcessHardening.apply()  // first thing in main, before any secret
  if !report.isComplete { warn("\(report)") }
}
