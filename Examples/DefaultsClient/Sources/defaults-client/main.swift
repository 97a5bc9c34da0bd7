// Asks for a password the way a new user of the library would, with every
// default, then holds what it got and says so on standard error, for
// check.py to scan the process: `defaults-client form|prompt|pinentry|source`.
// With `--sodium` it asks for sodium memory instead, the control: the scan
// must find the password then.
import Glibc
import Pinentry
import PinentryTerminal
import SecretFieldTerminal
import SecretSources
import SecureMemory

func say(_ text: String) {
  var line = text + "\n"
  _ = line.withUTF8 { write(2, $0.baseAddress, $0.count) }
}

/// Tells check.py the secret is held, then waits to be killed.
func hold() -> Never {
  say("HELD")
  while true { pause() }
}

let arguments = CommandLine.arguments.dropFirst()
let control = arguments.contains("--sodium")

switch arguments.first {
case "form":
  var form = TerminalForm(fields: [
    FormField(name: "user", label: "User:", kind: .plain(initialText: "")),
    FormField(name: "password", label: "Password:", kind: .secret),
  ])
  if control { form.storage = .sodium }
  guard case .submitted(let answers) = try form.run() else { exit(1) }
  withExtendedLifetime(answers) { hold() }
case "prompt":
  var configuration = PromptConfiguration(prompt: "Password:")
  if control { configuration.storage = .sodium }
  let secret = try PasswordPrompt(configuration).run().secret()
  withExtendedLifetime(secret) { hold() }
case "pinentry":
  // Answers GETPIN on the terminal OPTION ttyname names; check.py scans
  // while the session waits for the next request, then says BYE.
  var session =
    control
    ? try PinentrySession(interface: TerminalPinentry(storage: .sodium), storage: .sodium)
    : try PinentrySession(interface: TerminalPinentry())
  _ = try session.run()
case "source":
  var configuration = PromptConfiguration(prompt: "Password:")
  if control { configuration.storage = .sodium }
  let secret =
    control
    ? try SecretSource.terminal(configuration).obtain(
      storage: .sodium, reportingWarnings: { _ in })
    : try SecretSource.terminal(configuration).obtain()
  withExtendedLifetime(secret) { hold() }
default:
  say("usage: defaults-client form|prompt|pinentry|source [--sodium]")
  exit(2)
}
