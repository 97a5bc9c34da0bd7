import PTYSupport
import Testing

@Suite("secretfield hash and verify")
struct HashVerifyTests {
  @Test("hash asks twice on the terminal and prints a hash that verify accepts, typed or piped")
  func roundTrip() throws {
    let hashing = try startPrompt(command: "hash", waitingFor: "New password:")
    try hashing.type("correct horse\r")
    try hashing.waitForText("Again:")
    try hashing.type("correct horse\r")
    #expect(try hashing.waitForExit() == .exited(0))
    var hash = try hashing.standardOutput()
    #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"), "\(hash)")
    #expect(hash.hasSuffix("\n"))
    hash.removeLast()

    let typed = try startPrompt([hash], command: "verify")
    try typed.type("correct horse\r")
    #expect(try typed.waitForExit() == .exited(0))

    let wrong = try startPrompt([hash], command: "verify")
    try wrong.type("wrong horse\r")
    #expect(try wrong.waitForExit() == .exited(4))
    #expect(try wrong.standardError().contains("does not match"))

    let piped = try runWithoutTerminal(
      ["verify", "--stdin", hash], input: Array("correct horse\n".utf8))
    #expect(piped.status == .exited(0))
    let pipedWrong = try runWithoutTerminal(
      ["verify", "--stdin", hash], input: Array("correct horse!\n".utf8))
    #expect(pipedWrong.status == .exited(4))
  }

  @Test("verify cancelled: exit 1; hash with entries that differ 3 times: exit 4")
  func otherStatuses() throws {
    let cancelled = try startPrompt(
      ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$8mV0NxJtCDO1HRqUaeDWvQlSVeZl21x5YGnyBbz1yYU"],
      command: "verify")
    try cancelled.type(Key.escape)
    #expect(try cancelled.waitForExit() == .exited(1))

    let hashing = try startPrompt(command: "hash", waitingFor: "New password:")
    for attempt in 1...3 {
      try hashing.waitForScreen("entry \(attempt)") { screen in
        screen.lines.filter { $0.hasPrefix("New password:") }.count == attempt
      }
      try hashing.type("one\r")
      try hashing.waitForScreen("confirmation \(attempt)") { screen in
        screen.lines.filter { $0.hasPrefix("Again:") }.count == attempt
      }
      try hashing.type("two\r")
    }
    #expect(try hashing.waitForExit() == .exited(4))
    #expect(try hashing.standardOutput() == "")
  }

  @Test("a hash in a file, trailing newline and all")
  func hashFile() throws {
    let made = try runWithoutTerminal(["hash", "--stdin"], input: Array("pw\n".utf8))
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
