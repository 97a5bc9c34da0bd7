import PTYSupport
import Testing

@Suite("secretfield hash and verify")
struct HashVerifyTests {
  @Test("hash asks twice on the terminal and prints a hash that verify accepts, typed or piped")
  func roundTrip() throws {
    let hashing = try startPrompt(command: "hash", waitingFor: "New password:")
    try hashing.type("correct horse battery\r")
    try hashing.waitForText("Again:")
    try hashing.type("correct horse battery\r")
    #expect(try hashing.waitForExit() == .exited(0))
    var hash = try hashing.standardOutput()
    #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"), "\(hash)")
    #expect(hash.hasSuffix("\n"))
    hash.removeLast()

    let typed = try startPrompt([hash], command: "verify")
    try typed.type("correct horse battery\r")
    #expect(try typed.waitForExit() == .exited(0))

    let wrong = try startPrompt([hash], command: "verify")
    try wrong.type("wrong horse\r")
    #expect(try wrong.waitForExit() == .exited(4))
    #expect(try wrong.standardError().contains("does not match"))

    let piped = try runWithoutTerminal(
      ["verify", "--stdin", hash], input: Array("correct horse battery\n".utf8))
    #expect(piped.status == .exited(0))
    let pipedWrong = try runWithoutTerminal(
      ["verify", "--stdin", hash], input: Array("correct horse battery!\n".utf8))
    #expect(pipedWrong.status == .exited(4))
  }

  @Test("verify cancelled: exit 1; hash with entries that differ 3 times: exit 4")
  func otherStatuses() throws {
    let cancelled = try startPrompt(
      ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$8mV0NxJtCDO1HRqUaeDWvQlSVeZl21x5YGnyBbz1yYU"],
      command: "verify")
    try cancelled.type(Key.escape)
    #expect(try cancelled.waitForExit() == .exited(1))

    let hashing = try startPrompt(
      ["--allow-weak"], command: "hash", waitingFor: "New password:")
    try hashing.mismatchConfirmations(prompt: "New password:")
    #expect(try hashing.waitForExit() == .exited(4))
    #expect(try hashing.standardOutput() == "")
  }

  @Test("a hash in a file, trailing newline and all")
  func hashFile() throws {
    let made = try runWithoutTerminal(
      ["hash", "--stdin", "--allow-weak"], input: Array("pw\n".utf8))
    #expect(made.status == .exited(0))
    let path = temporaryPath("hash.txt")
    try made.output.write(toFile: path)
    defer { removeFile(path) }
    let verified = try runWithoutTerminal(
      ["verify", "--stdin", "--hash-file", path], input: Array("pw\n".utf8))
    #expect(verified.status == .exited(0), "\(verified.error)")
    let missing = try runWithoutTerminal(
      ["verify", "--stdin", "--hash-file", "/nonexistent/hash"], input: Array("pw\n".utf8))
    #expect(missing.status == .exited(2))
    #expect(missing.error.contains("cannot read the hash"))
  }
}

/// One way `hash` or `verify` can end, and the status the table gives it.
struct ToolEnding: CustomTestStringConvertible, Sendable {
  enum Run: Sendable {
    /// On the pty: wait for the prompt, type these keys one write each.
    case typing(prompt: String, keys: [String])
    /// On the pty: wait for the prompt, type nothing.
    case waiting(prompt: String)
    /// Without a terminal, standard input empty.
    case noTerminal
  }

  let name: String
  let arguments: [String]
  let run: Run
  let status: Int32
  let message: String?
  var testDescription: String { name }

  /// A hash of "correct horse", made once by `secretfield hash`.
  static let hash =
    "$argon2id$v=19$m=65536,t=2,p=1$CPK0GJHBcZkQ9YjUZ1SD8g$"
    + "Fk8YCbpNd3G5PukyeQDXPHHD5z0R6DuQd2JYMNZYevM"

  static let all = [
    ToolEnding(
      name: "verify: match, 0", arguments: ["verify", hash],
      run: .typing(prompt: "Password:", keys: ["correct horse", Key.enter]), status: 0,
      message: nil),
    ToolEnding(
      name: "verify: no match, 4", arguments: ["verify", hash],
      run: .typing(prompt: "Password:", keys: ["correct horsE", Key.enter]), status: 4,
      message: "does not match"),
    ToolEnding(
      name: "verify: cancelled, 1", arguments: ["verify", hash],
      run: .typing(prompt: "Password:", keys: [Key.controlC]), status: 1, message: nil),
    ToolEnding(
      name: "verify: malformed hash, 2, before any prompt",
      arguments: ["verify", "$argon2id$v=19$m=65536,t=2,p=1$short"], run: .noTerminal, status: 2,
      message: "not an Argon2 password hash"),
    ToolEnding(
      name: "verify: no terminal, 3", arguments: ["verify", hash], run: .noTerminal, status: 3,
      message: "no terminal to prompt on"),
    ToolEnding(
      name: "verify: timed out, 124", arguments: ["verify", "--timeout", "0.5", hash],
      run: .waiting(prompt: "Password:"), status: 124, message: "timed out"),
    ToolEnding(
      name: "hash: cancelled at the second entry, 1", arguments: ["hash", "--allow-weak"],
      run: .typing(prompt: "New password:", keys: ["pw", Key.enter, Key.escape]), status: 1,
      message: nil),
    ToolEnding(
      name: "hash: usage error, 2", arguments: ["hash", "--strength", "weak"], run: .noTerminal,
      status: 2, message: "interactive, moderate or sensitive"),
    ToolEnding(
      name: "hash: no terminal, 3", arguments: ["hash"], run: .noTerminal, status: 3,
      message: "no terminal to prompt on"),
    ToolEnding(
      name: "hash: timed out, 124", arguments: ["hash", "--timeout", "0.5"],
      run: .waiting(prompt: "New password:"), status: 124, message: "timed out"),
  ]
}

@Suite("secretfield hash and verify: each status of the table")
struct HashVerifyStatusTests {
  @Test("the exit status and the message", arguments: ToolEnding.all)
  func status(_ ending: ToolEnding) throws {
    let status: ProcessStatus
    let output: String
    let error: String
    switch ending.run {
    case .noTerminal:
      (status, output, error) = try runWithoutTerminal(ending.arguments)
    case .typing(let prompt, let keys):
      let session = try startPrompt(
        Array(ending.arguments.dropFirst()), command: ending.arguments[0], waitingFor: prompt)
      for key in keys {
        if key == Key.escape { try session.waitForText("Again:") }
        try session.type(key)
      }
      status = try session.waitForExit()
      (output, error) = (try session.standardOutput(), try session.standardError())
      #expect(try session.attributes() == session.initialAttributes)
    case .waiting(let prompt):
      let session = try startPrompt(
        Array(ending.arguments.dropFirst()), command: ending.arguments[0], waitingFor: prompt)
      status = try session.waitForExit()
      (output, error) = (try session.standardOutput(), try session.standardError())
    }
    #expect(status == .exited(ending.status), "\(error)")
    if ending.status != 0 { #expect(output == "", "nothing printed") }
    if let message = ending.message { #expect(error.contains(message), "\(error)") }
  }
}
