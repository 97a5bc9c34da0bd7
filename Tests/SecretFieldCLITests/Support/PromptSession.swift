import Glibc
import PTYSupport
import TestSupport

/// The `secretfield` executable built beside the tests.
let secretfield = builtExecutable("secretfield")

/// `secretfield prompt ARGUMENTS` in a pty as a shell runs it, standard output
/// and error captured, waited for until `prompt` is on the screen (which it
/// draws after entering raw mode, so typing may start).
func startPrompt(
  _ arguments: [String] = [], command: String = "prompt", waitingFor prompt: String = "Password:",
  options: TerminalSession.Options = TerminalSession.Options()
) throws -> TerminalSession {
  var options = options
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: secretfield, arguments: [command] + arguments, options: options)
  try session.waitForText(prompt)
  return session
}

/// `secretfield ARGUMENTS` without a controlling terminal, standard input
/// from `input`, standard output and error captured: for what needs no
/// terminal.
func runWithoutTerminal(
  _ arguments: [String], input: [UInt8]? = nil
) throws -> (status: ProcessStatus, output: String, error: String) {
  var options = TerminalSession.Options()
  options.hasControllingTerminal = false
  options.standardInput = input.map { .bytes($0) } ?? .null
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(executable: secretfield, arguments: arguments, options: options)
  let status = try session.waitForExit()
  return (
    status, String(decoding: try session.capturedOutput(stream: 1), as: UTF8.self),
    String(decoding: try session.capturedOutput(stream: 2), as: UTF8.self)
  )
}

extension TerminalSession {
  /// Waits until the prompt's line shows `count` masks.
  @discardableResult
  func waitForMasks(_ count: Int, prompt: String = "Password:") throws -> ScreenSnapshot {
    let line = prompt + " " + String(repeating: "•", count: count)
    return try waitForScreen("\(count) masks") { screen in
      screen.lines.contains { $0.hasPrefix(prompt) && $0 == (count == 0 ? prompt : line) }
    }
  }
}

extension String {
  /// Writes the string's UTF-8 to a new file at `path` (test data only).
  func write(toFile path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw HarnessError("cannot create \(path)") }
    defer { close(descriptor) }
    var text = self
    let written = text.withUTF8 { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    guard written == utf8.count else { throw HarnessError("cannot write \(path)") }
  }
}

/// Removes a file a test made.
func removeFile(_ path: String) {
  unlink(path)
}

/// A path under `/tmp` no other test uses.
func temporaryPath(_ name: String) -> String {
  "/tmp/secretfield-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
}
