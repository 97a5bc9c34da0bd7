import SecretFieldTerminal
import SecureMemory
import SecretSources

/// The README's `--password-from` example.
func sourceFromArgument(_ argument: String) throws {
  // env:VAR, file:PATH, fd:N, stdin, cmd:COMMAND, credential:NAME or keyring:NAME
  let source = try SecretSource(specification: argument)
  // ["pass", "show", "my site"]: quotes as in a shell, nothing expanded
  let words = try ShellWords.split("pass show 'my site'")
  let secret = try source.obtain { warning in print("warning: \(warning)") }
  print(words, secret.count)
}
