import PTYSupport
import TestSupport

/// The `secretfield-askpass` executable built beside the tests.
let secretfieldAskpass = builtExecutable("secretfield-askpass")

/// `secretfield-askpass ARGUMENTS` in a pty as a shell runs it, with
/// `environment` added, standard output and error captured (as ssh, sudo and
/// git give it a pipe), waited for until `prompt` is on the screen.
func startAskpass(
  _ arguments: [String], environment: [String: String] = [:],
  waitingFor prompt: String? = nil, options: TerminalSession.Options = TerminalSession.Options()
) throws -> TerminalSession {
  var options = options
  options.environment.merge(environment) { $1 }
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: secretfieldAskpass, arguments: arguments, options: options)
  if let prompt { try session.waitForText(prompt) }
  return session
}

/// `secretfield-askpass ARGUMENTS` without a controlling terminal.
func runAskpassWithoutTerminal(
  _ arguments: [String], environment: [String: String] = [:]
) throws -> (status: ProcessStatus, output: String, error: String) {
  var options = TerminalSession.Options()
  options.hasControllingTerminal = false
  options.environment = environment
  options.standardInput = .null
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: secretfieldAskpass, arguments: arguments, options: options)
  let status = try session.waitForExit()
  return (status, try session.standardOutput(), try session.standardError())
}
