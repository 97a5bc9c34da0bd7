import SecretFieldTerminal
import SecureMemory
import SecretSources

/// The README's kernel keyring example: ask once, then take the cached
/// passphrase until it expires.
func cachedBackupPassphrase() throws -> Int {
  let passphrase = try SecretSource.firstAvailable([
    .keyring(name: "backup"), .terminal(PromptConfiguration(prompt: "Backup passphrase:")),
  ]).obtain(cachingUncheckedUnder: "backup")
  return passphrase.count
}
