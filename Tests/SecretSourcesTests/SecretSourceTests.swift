import Glibc
import PTYSupport
import SecretSources
import SecureMemory
import TestSupport
import Testing

/// What a source gave: the secret as text (test data only), or its error.
enum Obtained: Equatable, CustomStringConvertible {
  case secret(String)
  case failed(SecretSourceError.Code)

  init(_ source: SecretSource, warnings: inout [SecretSourceWarning]) {
    do {
      let secret = try source.obtain { warnings.append($0) }
      self = .secret(text(secret))
    } catch {
      self = .failed(error.code)
    }
  }

  init(_ source: SecretSource) {
    var warnings: [SecretSourceWarning] = []
    self.init(source, warnings: &warnings)
  }

  var description: String {
    switch self {
    case .secret(let text): "secret \(text.debugDescription)"
    case .failed(let code): "error \(code)"
    }
  }
}

/// A unique variable name, so parallel tests never share one.
func uniqueVariable() -> String { "SF_TEST_\(UInt64.random(in: 1...UInt64.max))" }

@Suite("SecretSource: files")
struct SecretSourceFileTests {
  @Test("the first line; a CR LF or LF is not part of it; a file without a line feed counts whole")
  func firstLine() throws {
    let directory = try SourceDirectory()
    let cases: [([UInt8], String)] = [
      (Array("pw one\nsecond line\n".utf8), "pw one"),
      (Array("crlf\r\n".utf8), "crlf"),
      (Array("no line feed".utf8), "no line feed"),
      (Array("é 👨‍👩‍👧\n".utf8), "é 👨‍👩‍👧"),
    ]
    for (index, (bytes, expected)) in cases.enumerated() {
      let path = try directory.file("f\(index)", bytes)
      #expect(Obtained(.file(path: path)) == .secret(expected))
    }
  }

  @Test(
    "bad input: an error with its code and no secret",
    arguments: [
      ("missing", SecretSourceError.Code.cannotOpen),
      ("directory", .isDirectory),
      ("others-writable", .unsafePermissions),
      ("group-writable", .unsafePermissions),
      ("empty", .empty),
      ("empty first line", .empty),
      ("too long", .tooLong),
    ])
  func badInput(_ name: String, _ code: SecretSourceError.Code) throws {
    let directory = try SourceDirectory()
    let path: String
    switch name {
    case "missing": path = directory.path + "/none"
    case "directory": path = directory.path
    case "others-writable": path = try directory.file("f", Array("pw\n".utf8), mode: 0o602)
    case "group-writable": path = try directory.file("f", Array("pw\n".utf8), mode: 0o620)
    case "empty": path = try directory.file("f", [])
    case "empty first line": path = try directory.file("f", Array("\nsecond\n".utf8))
    default: path = try directory.file("f", [UInt8](repeating: 0x61, count: 8193))
    }
    #expect(Obtained(.file(path: path)) == .failed(code))
  }

  @Test("control of the limit: a first line of exactly 8192 bytes before more text is taken")
  func atTheLimit() throws {
    let directory = try SourceDirectory()
    let line = [UInt8](repeating: 0x62, count: 8192)
    let path = try directory.file("f", line + Array("\nmore".utf8))
    #expect(Obtained(.file(path: path)) == .secret(String(decoding: line, as: UTF8.self)))
  }

  @Test("a terminal is refused: it would echo")
  func terminal() throws {
    let pair = try PseudoTerminalPair()
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.file(path: pair.slavePath).obtain()
    }
    #expect(error?.code == .isTerminal)
    #expect(error?.description.contains("ask on the terminal instead") == true)
  }

  @Test("readable by group or others: taken, with a warning; private: no warning")
  func looseModeWarns() throws {
    let directory = try SourceDirectory()
    var warnings: [SecretSourceWarning] = []
    let loose = try directory.file("loose", Array("pw\n".utf8), mode: 0o644)
    #expect(Obtained(.file(path: loose), warnings: &warnings) == .secret("pw"))
    #expect(warnings.map(\.code) == [.readableByOthers])
    #expect(warnings.first?.description.contains("chmod 600") == true)
    warnings = []
    let tight = try directory.file("tight", Array("pw\n".utf8), mode: 0o400)
    #expect(Obtained(.file(path: tight), warnings: &warnings) == .secret("pw"))
    #expect(warnings.isEmpty)
  }
}

@Suite("SecretSource: descriptors and standard input")
struct SecretSourceDescriptorTests {
  @Test("one line from a pipe; nothing after it is taken")
  func pipeLine() throws {
    let descriptor = pipeHolding(Array("from fd\nnext\n".utf8))
    defer { close(descriptor) }
    #expect(Obtained(.descriptor(descriptor)) == .secret("from fd"))
    var rest = [UInt8](repeating: 0, count: 16)
    let got = rest.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    #expect(Array(rest[..<max(got, 0)]) == Array("next\n".utf8))
  }

  @Test("bad input: a terminal, a closed descriptor, an empty pipe, a line too long")
  func badInput() throws {
    let pair = try PseudoTerminalPair()
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.descriptor(pair.slave).obtain()
    }
    #expect(error?.code == .isTerminal)
    #expect(error?.description.contains("ask on the terminal instead") == true)

    #expect(Obtained(.descriptor(9876)) == .failed(.cannotOpen))
    let empty = pipeHolding([])
    defer { close(empty) }
    #expect(Obtained(.descriptor(empty)) == .failed(.empty))
    let long = pipeHolding([UInt8](repeating: 0x61, count: 9000))
    defer { close(long) }
    #expect(Obtained(.descriptor(long)) == .failed(.tooLong))
  }

  @Test("a line reader refuses a terminal before reading, and reads a pipe (control)")
  func readLineRefusesTerminal() throws {
    let pair = try PseudoTerminalPair()
    pair.type(Array("typed\n".utf8))
    #expect(Obtained(.descriptor(pair.slave)) == .failed(.isTerminal))
    let descriptor = pipeHolding(Array("piped\n".utf8))
    defer { close(descriptor) }
    #expect(Obtained(.descriptor(descriptor)) == .secret("piped"))
  }

  @Test("standard input: one line; a terminal on standard input is refused")
  func standardInput() async {
    await #expect(processExitsWith: .success) {
      let descriptor = pipeHolding(Array("stdin line\nrest\n".utf8))
      dup2(descriptor, 0)
      #expect(Obtained(.standardInput) == .secret("stdin line"))
      let pair = try! PseudoTerminalPair()
      dup2(pair.slave, 0)
      #expect(Obtained(.standardInput) == .failed(.isTerminal))
    }
  }
}

@Suite("SecretSource: environment variables")
struct SecretSourceEnvironmentTests {
  @Test("the value is taken, overwritten in place and unset; a child does not inherit it")
  func scrubbed() async {
    await #expect(processExitsWith: .success) {
      let name = uniqueVariable()
      setenv(name, "env secret", 1)
      let value = getenv(name)!
      let childCheck = ["sh", "-c", "test -z \"${\(name)+set}\""]
      let empty = try! SecureBuffer(capacity: 1)
      // Control: before, the child sees the variable.
      #expect(try! ChildProcess.run(childCheck, standardInput: empty) == .exited(1))
      #expect(SecretSource.environment(name: name).isSet)
      #expect(Obtained(.environment(name: name)) == .secret("env secret"))
      #expect(getenv(name) == nil)
      #expect(!SecretSource.environment(name: name).isSet)
      // The bytes where the value was are zero (glibc's setenv block is not freed).
      #expect((0..<10).allSatisfy { value[$0] == 0 })
      #expect(try! ChildProcess.run(childCheck, standardInput: empty) == .exited(0))
    }
  }

  @Test("bad input: unset, empty, too long; an empty or long value is left as it was")
  func badInput() async {
    await #expect(processExitsWith: .success) {
      let name = uniqueVariable()
      #expect(Obtained(.environment(name: name)) == .failed(.notSet))
      setenv(name, "", 1)
      #expect(SecretSource.environment(name: name).isSet)
      #expect(Obtained(.environment(name: name)) == .failed(.empty))
      setenv(name, String(repeating: "a", count: 8193), 1)
      #expect(Obtained(.environment(name: name)) == .failed(.tooLong))
      #expect(getenv(name).map { strlen($0) } == 8193)
    }
  }
}

@Suite("SecretSource: systemd credentials")
struct SecretSourceCredentialTests {
  @Test("$CREDENTIALS_DIRECTORY/NAME is read; absent directory or file means not set")
  func credentials() async {
    await #expect(processExitsWith: .success) {
      let directory = try! SourceDirectory()
      try! directory.file("db-password", Array("cred pw\n".utf8), mode: 0o400)
      try! directory.file("empty", [], mode: 0o400)
      unsetenv("CREDENTIALS_DIRECTORY")
      #expect(!SecretSource.credential(name: "db-password").isSet)
      #expect(Obtained(.credential(name: "db-password")) == .failed(.notSet))
      setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
      #expect(SecretSource.credential(name: "db-password").isSet)
      #expect(Obtained(.credential(name: "db-password")) == .secret("cred pw\n"))
      #expect(!SecretSource.credential(name: "other").isSet)
      #expect(Obtained(.credential(name: "other")) == .failed(.notSet))
      #expect(Obtained(.credential(name: "empty")) == .failed(.empty))
    }
  }

  /// Files and what `systemd-ask-password --credential=` gives for each (it
  /// prints the secret and a line feed): the whole file. (A file with a NUL
  /// byte, which systemd cuts there, is refused: `SecretSourceNULTests`.)
  static let wholeFiles: [(content: String, secret: String)] = [
    ("line1\nline2\n", "line1\nline2\n"), ("abc\n", "abc\n"), ("abc", "abc"),
  ]

  @Test("the whole file, as systemd-ask-password takes it")
  func wholeFile() async {
    await #expect(processExitsWith: .success) {
      let directory = try! SourceDirectory()
      for (index, file) in Self.wholeFiles.enumerated() {
        try! directory.file("c\(index)", Array(file.content.utf8), mode: 0o400)
      }
      setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
      for (index, file) in Self.wholeFiles.enumerated() {
        #expect(Obtained(.credential(name: "c\(index)")) == .secret(file.secret))
        // The peer, where it is installed (CI installs systemd): the table
        // above is what it does, not what we think it does.
        guard access("/usr/bin/systemd-ask-password", X_OK) == 0 else { continue }
        let peer = try! runProgram([
          "/usr/bin/systemd-ask-password", "--credential=c\(index)", "x",
        ])
        #expect(peer.status == 0)
        #expect(peer.outputBytes == Array((file.secret + "\n").utf8), "\(index)")
      }
    }
  }
}

@Suite("SecretSource: commands")
struct SecretSourceCommandTests {
  @Test("the first line of the output; a long output is read to its end, so the command exits 0")
  func firstLine() {
    #expect(Obtained(.command(["printf", "cmd pw\\nsecond\\n"])) == .secret("cmd pw"))
    // 600 KB after the first line: a reader that stopped would kill seq by SIGPIPE.
    #expect(Obtained(.command(["seq", "1", "100000"])) == .secret("1"))
    #expect(Obtained(.command(["printf", "no newline"])) == .secret("no newline"))
  }

  @Test(
    "bad input: the error names the command and its status",
    arguments: [
      (["false"], SecretSourceError.Code.commandFailed, "exited with status 1"),
      (["sh", "-c", "kill -KILL $$"], .commandFailed, "signal 9 (SIGKILL)"),
      (["sh", "-c", "echo partial; kill -TERM $$"], .commandFailed, "signal 15 (SIGTERM)"),
      (["true"], .empty, "is empty"),
      (["sf-no-such-program"], .commandNotStarted, "sf-no-such-program"),
      (["sh", "-c", "head -c 9000 /dev/zero | tr '\\0' a"], .tooLong, "longer than 8192"),
    ])
  func badInput(_ arguments: [String], _ code: SecretSourceError.Code, _ words: String) {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.command(arguments).obtain()
    }
    #expect(error?.code == code)
    #expect(error?.description.contains(words) == true, "\(String(describing: error))")
    if code != .commandNotStarted {
      #expect(error?.description.contains(arguments[0]) == true)
    }
  }

  @Test("no line before the timeout: an error, and the command is ended")
  func timeout() {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.command(["sleep", "30"], timeout: .milliseconds(200)).obtain()
    }
    #expect(error?.code == .commandFailed)
    #expect(error?.description.contains("printed no line within") == true)
  }

  @Test(
    "a line, then no exit: the same deadline ends it, and the error says so",
    arguments: [
      // Output closed, still running: waiting for the exit alone was for ever.
      "echo pw; exec >&-; exec sleep 30",
      // Output left open: this was reported as "printed no line".
      "echo pw; exec sleep 30",
    ])
  func lineThenNoExit(_ script: String) {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.command(["sh", "-c", script], timeout: .milliseconds(300)).obtain()
    }
    #expect(error?.code == .commandFailed)
    #expect(
      error?.description.contains("printed its line but did not exit within 0.3 s") == true,
      "\(String(describing: error))")
  }
}

@Suite("SecretSource.firstAvailable")
struct SecretSourceChoiceTests {
  @Test("the first that is set, else the last; a set source that fails is not passed over")
  func choice() async {
    await #expect(processExitsWith: .success) {
      let unset = uniqueVariable()
      let set = uniqueVariable()
      setenv(set, "second", 1)
      unsetenv("CREDENTIALS_DIRECTORY")
      let terminal = SecretSource.asking(StubAsker(answer: "asked"))
      #expect(
        SecretSource.firstAvailable([.environment(name: unset), .environment(name: set), terminal])
          == .environment(name: set))
      #expect(
        SecretSource.firstAvailable([
          .environment(name: unset), .credential(name: "x"), terminal,
        ]) == terminal)
      #expect(
        SecretSource.firstAvailable([.environment(name: unset), .credential(name: "x")])
          == .credential(name: "x"))
      let failing = SecretSource.file(path: "/nonexistent/pw")
      #expect(SecretSource.firstAvailable([failing, terminal]) == failing)
      #expect(Obtained(SecretSource.firstAvailable([failing, terminal])) == .failed(.cannotOpen))
    }
  }

  @Test("an asker's own error comes through with its cause")
  func askerFails() {
    let error = #expect(throws: SecretSourceError.self) {
      _ = try SecretSource.asking(StubAsker(answer: nil)).obtain()
    }
    #expect(error?.code == .promptFailed)
    #expect(error?.cause is StubAsker.Unreachable)
  }

  @Test("askers compare by value: equal askers make equal sources")
  func askersCompare() {
    #expect(SecretSource.asking(StubAsker(answer: "a")) == .asking(StubAsker(answer: "a")))
    #expect(SecretSource.asking(StubAsker(answer: "a")) != .asking(StubAsker(answer: "b")))
    #expect(SecretSource.asking(StubAsker(answer: "a")) != .standardInput)
  }
}

/// A front end that answers without asking anyone: `answer` as the secret
/// (test data), or, for nil, `promptFailed` as if there were no terminal.
struct StubAsker: SecretAsking {
  struct Unreachable: Error {}
  var answer: String?

  func ask() throws(SecretSourceError) -> SecureBuffer {
    guard let answer else {
      throw SecretSourceError(.promptFailed, "no way to ask", cause: Unreachable())
    }
    do { return try secureText(answer) } catch {
      throw SecretSourceError(.secureMemoryFailed, "\(error)")
    }
  }
}
