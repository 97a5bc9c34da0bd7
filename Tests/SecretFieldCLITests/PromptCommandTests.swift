import PTYSupport
import Testing

@Suite("secretfield prompt: where the password comes from and goes to")
struct PromptCommandTests {
  @Test("without a terminal: exit 3 and a message that says what to do")
  func noTerminal() throws {
    let (status, output, error) = try runWithoutTerminal(["prompt"])
    #expect(status == .exited(3))
    #expect(output == "")
    #expect(error.contains("no terminal to prompt on"), "\(error)")
    #expect(error.contains("--stdin"), "\(error)")
  }

  @Test("standard output a terminal: exit 3 before prompting, nothing drawn")
  func standardOutputIsTerminal() throws {
    let session = try startWithOutputOnTerminal(secretfield, ["prompt"])
    #expect(try session.waitForExit() == .exited(3))
    let error = try session.standardError()
    #expect(error.contains("standard output is a terminal"), "\(error)")
    #expect(!(try session.screen().contains("Password:")))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("--stdin reads one line into secure memory and writes it out, without a terminal")
  func standardInput() throws {
    let line = try runWithoutTerminal(
      ["prompt", "--stdin"], input: Array("s3cret é 👨‍👩‍👧\nthe next line\n".utf8))
    #expect(line.status == .exited(0))
    #expect(line.output == "s3cret é 👨‍👩‍👧\n")

    let crlf = try runWithoutTerminal(["prompt", "--stdin"], input: Array("pw\r\n".utf8))
    #expect(crlf.output == "pw\n")

    let lastLine = try runWithoutTerminal(["prompt", "--stdin"], input: Array("no newline".utf8))
    #expect(lastLine.status == .exited(0))
    #expect(lastLine.output == "no newline\n")

    let empty = try runWithoutTerminal(["prompt", "--stdin"], input: [])
    #expect(empty.status == .exited(1))
    #expect(empty.output == "")

    let tooLong = try runWithoutTerminal(
      ["prompt", "--stdin"], input: Array(repeating: 0x61, count: 9000))
    #expect(tooLong.status == .exited(2))
    #expect(tooLong.output == "")
    #expect(tooLong.error.contains("longer than 8192 bytes"), "\(tooLong.error)")
  }

  @Test("--stdin with a terminal present still reads standard input, not the terminal")
  func standardInputWithTerminal() throws {
    var options = TerminalSession.Options()
    options.standardInput = .bytes(Array("piped\n".utf8))
    options.standardOutput = .captured
    let session = try TerminalSession(
      executable: secretfield, arguments: ["prompt", "--stdin"], options: options)
    #expect(try session.waitForExit() == .exited(0))
    #expect(try session.standardOutput() == "piped\n")
    #expect(!(try session.screen().contains("Password:")))
  }

  @Test("--help and --version answer on every command, exit 0")
  func helpAndVersion() throws {
    for arguments in [
      ["--help"], ["prompt", "--help"], ["hash", "-h"], ["verify", "--help"], ["help", "prompt"],
    ] {
      let (status, output, _) = try runWithoutTerminal(arguments)
      #expect(status == .exited(0), "\(arguments)")
      #expect(output.contains("Usage: secretfield"), "\(arguments): \(output)")
    }
    for arguments in [["--version"], ["prompt", "--version"], ["verify", "--version"]] {
      let (status, output, _) = try runWithoutTerminal(arguments)
      #expect(status == .exited(0))
      #expect(output.hasPrefix("secretfield "), "\(arguments): \(output)")
    }
    let help = try runWithoutTerminal(["prompt", "--help"]).output
    for word in ["--confirm", "--timeout", "--stdin", "--no-reveal", "--mask", "--no-echo", "124"] {
      #expect(help.contains(word), "\(word)")
    }
  }

  @Test(
    "usage errors: exit 2 and a message that says what to change",
    arguments: [
      (["prompt", "--bogus"], "unknown option '--bogus'"),
      (["prompt", "--timeout"], "needs a number of seconds"),
      (["prompt", "--timeout", "soon"], "is not a valid value for --timeout"),
      (["prompt", "--timeout", "0"], "above 0"),
      (["prompt", "--mask", "ab"], "one visible character"),
      (["prompt", "--confirm=yes"], "takes no value"),
      (["prompt", "--stdin", "--confirm"], "cannot be used together"),
      (["prompt", "--no-echo", "--mask", "*"], "cannot be used together"),
      (["prompt", "Pass", "word:"], "quote it"),
      (["frobnicate"], "unknown command 'frobnicate'"),
      ([], "no command given"),
      (["verify"], "give the hash"),
      (["verify", "not-a-hash"], "not an Argon2 password hash"),
      (["hash", "--strength", "extreme"], "interactive, moderate or sensitive"),
    ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let (status, output, error) = try runWithoutTerminal(arguments, input: Array("pw\n".utf8))
    #expect(status == .exited(2), "\(arguments): \(error)")
    #expect(output == "")
    #expect(error.contains(message), "\(arguments): \(error)")
  }
}
