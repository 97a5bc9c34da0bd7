import SecretFieldTerminal
import SecureMemory
import SecretSources

/// The README's first example: a password from the environment, a systemd
/// credential or the terminal, checked against a stored hash, then handed to
/// a child.
func login(storedHash: String, file: String) throws {
  let password = try SecretSource.firstAvailable([
    .environment(name: "MYTOOL_PASSWORD"),  // read, overwritten in place, unset
    .credential(name: "mytool-password"),  // systemd: $CREDENTIALS_DIRECTORY/mytool-password
    .terminal(PromptConfiguration(prompt: "Password:")),
  ]).obtain()
  if try PasswordHash.verify(password, against: PasswordHash(storedHash)) {
    let gpg = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase-fd", "0"]
    let ending = try ChildProcess.run(gpg + ["-d", file], standardInput: password)  // on its stdin
    print("gpg ended with \(ending)")  // exit status 0, signal 15 (SIGTERM)
  }
}
