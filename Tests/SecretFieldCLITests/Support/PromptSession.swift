import Glibc
import PTYSupport
import TestSupport

/// Keys as a terminal sends them, one write each.
enum Key {
  static let escape = "\u{1B}"
  static let csi = "\u{1B}["
  static let left = csi + "D"
  static let right = csi + "C"
  static let home = csi + "H"
  static let end = csi + "F"
  static let homeSS3 = escape + "OH"
  static let endSS3 = escape + "OF"
  static let delete = csi + "3~"
  static let backspace = "\u{7F}"
  static let controlH = "\u{08}"
  static let tab = "\t"
  static let enter = "\r"
  static let controlA = "\u{01}"
  static let controlB = "\u{02}"
  static let controlC = "\u{03}"
  static let controlD = "\u{04}"
  static let controlE = "\u{05}"
  static let controlF = "\u{06}"
  static let controlK = "\u{0B}"
  static let controlL = "\u{0C}"
  static let controlU = "\u{15}"
  static let controlW = "\u{17}"
  static let controlZ = "\u{1A}"

  /// A bracketed paste of `text`.
  static func paste(_ text: String) -> String { csi + "200~" + text + csi + "201~" }
}

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
  /// What the program wrote to standard output, once it closed it.
  func standardOutput() throws -> String {
    String(decoding: try capturedOutput(stream: 1), as: UTF8.self)
  }

  /// What the program wrote to standard error, once it closed it.
  func standardError() throws -> String {
    String(decoding: try capturedOutput(stream: 2), as: UTF8.self)
  }

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
