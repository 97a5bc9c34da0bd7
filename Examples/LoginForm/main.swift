// A login form on the terminal: a user name in plain text and a password,
// Tab and Shift-Tab (or Down and Up) between them, Ctrl+R to show the
// password, Enter to submit, Esc to cancel.
//
// Prints the user name on standard error and writes the password to standard
// output from secure memory, as `secretfield prompt` does; exit status 0, or
// 1 when cancelled, 124 when timed out, 3 without a terminal.
//
// Usage: login-form [USER] [--timeout SECONDS]
import Glibc
import SecretField
import SecretFieldTerminal
import SecureMemory

/// Writes `text` (never a secret) to standard error.
func report(_ text: String) {
  var text = text
  _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var timeout: Duration?
if let index = arguments.firstIndex(of: "--timeout"), index + 1 < arguments.count {
  timeout = Double(arguments[index + 1]).map { .milliseconds(Int($0 * 1000)) }
  arguments.removeSubrange(index...(index + 1))
}

var form = TerminalForm(fields: [
  FormField(name: "user", label: "User:", kind: .plain(initialText: arguments.first ?? "")),
  FormField(name: "password", label: "Password:", kind: .secret, minimumLength: 1),
])
form.description = "Log in to the example"
form.timeout = timeout

let result: EntryOutcome<FormAnswers>
do {
  result = try form.run()
} catch {
  report("login-form: \(error)\n")
  exit(3)
}
switch result {
case .submitted(let answers):
  report("user: \(answers.texts["user"] ?? "")\n")
  let written = answers.secrets.withSecret(for: "password") { bytes -> Bool in
    var offset = 0
    while offset < bytes.count {
      let count = write(1, bytes.baseAddress! + offset, bytes.count - offset)
      if count <= 0 { return false }
      offset += count
    }
    return true
  }
  exit(written == true ? 0 : 1)
case .ended(.timedOut):
  exit(124)
case .ended:
  exit(1)
}
