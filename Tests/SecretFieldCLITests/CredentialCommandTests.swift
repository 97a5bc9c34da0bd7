import Foundation
import Glibc
import PTYSupport
import SecretFieldCLI
import SecureMemory
import TestSupport
import Testing
import ToolSupport

/// A front end for the seam: answers with fixed values, and refuses when the
/// question is not the one expected (its message on standard error).
struct ScriptedAsker: CredentialAsking {
  enum Reply: Sendable {
    case credential(username: String, password: [UInt8])
    case declined
    case failed(ToolSupport.ExitStatus)
  }

  let reply: Reply
  var expectedTitle: String?
  var expectedUsername: String?

  func ask(_ question: CredentialQuestion, in context: CommandContext) -> CredentialAnswer {
    if let expectedTitle, question.title != expectedTitle {
      context.printError("asked '\(question.title)', not '\(expectedTitle)'")
      return .failed(.cancelled)
    }
    if question.target.username != expectedUsername {
      context.printError("the user name given was \(String(describing: question.target.username))")
      return .failed(.cancelled)
    }
    switch reply {
    case .credential(let username, let password):
      do {
        var secret = try SecureBuffer(capacity: password.count, storage: question.storage)
        try secret.append(count: password.count) {
          (spare: UnsafeMutableRawBufferPointer) throws(Never) in
          spare.copyBytes(from: password)
        }
        return .credential(username: username, password: secret)
      } catch {
        return .failed(.cancelled)
      }
    case .declined: return .declined
    case .failed(let status): return .failed(status)
    }
  }
}

/// A host no other test uses, so no cached key can answer for it.
func uniqueHost(_ label: String) -> String {
  "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).invalid"
}

/// `secretfield credential` in this process with `asker`: git's request on a
/// pipe, the answer and the messages collected.
func runCredential(
  _ arguments: [String], request: String, asker: some CredentialAsking
) throws -> (status: ToolSupport.ExitStatus, output: String, error: String) {
  var command = try CredentialCommand(arguments: arguments)
  command.asker = asker
  let input = try TestSupport.Pipe()
  let output = try TestSupport.Pipe()
  let error = try TestSupport.Pipe()
  input.send(Array(request.utf8))
  input.closeWriteEnd()
  var context = CommandContext()
  context.standardInput = input.readEnd
  context.standardOutput = output.writeEnd
  context.standardError = error.writeEnd
  context.terminalPath = "/nonexistent/tty"
  let status = command.run(in: context)
  output.closeWriteEnd()
  error.closeWriteEnd()
  return (
    status, String(decoding: output.receiveAll(), as: UTF8.self),
    String(decoding: error.receiveAll(), as: UTF8.self)
  )
}

/// `secretfield credential ARGUMENTS` (the built binary, no terminal) with
/// `request` on standard input.
func runCredentialTool(_ arguments: [String], request: [UInt8]) throws -> (
  status: ProcessStatus, output: String, error: String
) {
  try runWithoutTerminal(["credential"] + arguments, input: request)
}

@Suite("secretfield credential: the asking seam, the answer, bad input")
struct CredentialCommandTests {
  @Test(
    "nothing cached: the front end is asked, with git's user name, and its answer goes to git whole"
  )
  func asksTheFrontEnd() throws {
    let host = uniqueHost("seam")
    let asker = ScriptedAsker(
      reply: .credential(username: "carol", password: Array("s3cret é".utf8)),
      expectedTitle: "git: https://\(host)/team/repo.git", expectedUsername: "bob")
    let run = try runCredential(
      ["get"], request: "protocol=https\nhost=\(host)\npath=team/repo.git\nusername=bob\n\n",
      asker: asker)
    #expect(run.status == .success, "\(run.error)")
    #expect(run.output == "username=carol\npassword=s3cret é\n\n")
  }

  @Test(
    "a password or user name with a line break from the front end: refused, nothing written to git")
  func lineBreakRefused() throws {
    for (username, password) in [("carol", "two\nlines"), ("carol", "cr\rhere"), ("ca\nrol", "pw")]
    {
      let run = try runCredential(
        ["get"], request: "protocol=https\nhost=\(uniqueHost("newline"))\n",
        asker: ScriptedAsker(
          reply: .credential(username: username, password: Array(password.utf8))))
      #expect(run.status == .cancelled)
      #expect(run.output.isEmpty, "half an answer: \(run.output)")
      #expect(run.error.contains("line break"), "\(run.error)")
    }
  }

  @Test(
    "cancelled in the front end: git is told to quit; a front end that could not ask: git is told nothing"
  )
  func declinedAndFailed() throws {
    let request = "protocol=https\nhost=\(uniqueHost("declined"))\n"
    let declined = try runCredential(
      ["get"], request: request, asker: ScriptedAsker(reply: .declined))
    #expect(declined.status == .cancelled)
    #expect(declined.output == "quit=1\n\n")
    let failed = try runCredential(
      ["get"], request: request, asker: ScriptedAsker(reply: .failed(.noTerminal)))
    #expect(failed.status == .noTerminal)
    #expect(failed.output.isEmpty)
  }

  @Test(
    "store, then get answers from the cache with the expiry and the refresh token; erase with another password keeps it, with its own removes it",
    .enabled(if: KeyringOracle.isAvailable, "needs keyctl"))
  func storeGetErase() throws {
    let host = uniqueHost("cycle")
    let expiry = Int(time(nil)) + 600
    let name =
      "secretfield-git;protocol=https;host=\(host);username=alice;password_expiry_utc=\(expiry)"
    defer { KeyringOracle.remove(name) }
    let stored = try runCredentialTool(
      ["store"],
      request: Array(
        ("protocol=https\nhost=\(host)\nusername=alice\npassword=pw\n"
          + "password_expiry_utc=\(expiry)\noauth_refresh_token=refresh\n\n").utf8))
    #expect(stored.status == .exited(0), "\(stored.error)")
    #expect(KeyringOracle.payload(name) == Array("pw\u{0}refresh".utf8))
    let seconds = try #require(try keyTimeout(name))
    #expect(seconds <= 600 && seconds > 0, "never past password_expiry_utc: \(seconds)")

    let never = try runCredential(
      ["get"], request: "protocol=https\nhost=\(host)\n",
      asker: ScriptedAsker(reply: .failed(.cancelled)))
    #expect(never.status == .success, "\(never.error)")
    #expect(
      never.output
        == "username=alice\npassword=pw\npassword_expiry_utc=\(expiry)\noauth_refresh_token=refresh\n\n"
    )

    let other = try runCredentialTool(
      ["erase"], request: Array("protocol=https\nhost=\(host)\nusername=alice\npassword=new\n".utf8)
    )
    #expect(other.status == .exited(0))
    #expect(KeyringOracle.serial(name) != nil, "erase with another password removed it")
    let own = try runCredentialTool(
      ["erase"], request: Array("protocol=https\nhost=\(host)\nusername=alice\npassword=pw\n".utf8))
    #expect(own.status == .exited(0))
    #expect(KeyringOracle.serial(name) == nil)
  }

  @Test(
    "store: a password past its expiry is not cached; the default timeout is 900 s, and --timeout changes it",
    .enabled(if: KeyringOracle.isAvailable, "needs keyctl"))
  func timeouts() throws {
    let host = uniqueHost("timeout")
    let plain = "secretfield-git;protocol=https;host=\(host);username=alice"
    defer { KeyringOracle.remove(plain) }
    let expired = Int(time(nil)) - 1
    let past = try runCredentialTool(
      ["store"],
      request: Array(
        "protocol=https\nhost=\(host)\nusername=alice\npassword=pw\npassword_expiry_utc=\(expired)\n"
          .utf8))
    #expect(past.status == .exited(0))
    #expect(
      KeyringOracle.serial(plain + ";password_expiry_utc=\(expired)") == nil,
      "an expired password was cached")

    let request = Array("protocol=https\nhost=\(host)\nusername=alice\npassword=pw\n".utf8)
    #expect(try runCredentialTool(["store"], request: request).status == .exited(0))
    let standard = try #require(try keyTimeout(plain))
    #expect(standard > 800 && standard <= 900, "\(standard)")
    #expect(
      try runCredentialTool(["--timeout", "30", "store"], request: request).status == .exited(0))
    let short = try #require(try keyTimeout(plain))
    #expect(short <= 30, "\(short)")
  }

  struct BadRequest: CustomTestStringConvertible, Sendable {
    let name: String
    let operation: String
    let request: [UInt8]
    let mentions: String
    var testDescription: String { "\(operation): \(name)" }

    static func all(host: String) -> [BadRequest] {
      let good = "protocol=https\nhost=\(host)\nusername=alice\n"
      return [
        BadRequest(
          name: "a malformed line", operation: "store",
          request: Array((good + "password=pw\nnonsense\n").utf8), mentions: "line 5"),
        BadRequest(
          name: "a NUL", operation: "store",
          request: Array((good + "password=p").utf8) + [0, 0x0A],
          mentions: "NUL"),
        BadRequest(
          name: "a value over 64 KiB", operation: "store",
          request: Array((good + "password=").utf8) + Array(repeating: 0x61, count: 70_000) + [
            0x0A
          ],
          mentions: "64 KiB"),
        BadRequest(
          name: "a duplicate key", operation: "store",
          request: Array((good + "password=pw\nusername=mallory\n").utf8), mentions: "twice"),
        BadRequest(
          name: "no host", operation: "store",
          request: Array("protocol=https\nusername=alice\npassword=pw\n".utf8), mentions: "host="),
        BadRequest(
          name: "no password", operation: "store", request: Array(good.utf8),
          mentions: "password="),
        BadRequest(
          name: "a NUL", operation: "get", request: Array(good.utf8) + [0, 0x0A], mentions: "NUL"),
        BadRequest(
          name: "no host", operation: "get", request: Array("protocol=https\n".utf8),
          mentions: "host="),
      ]
    }
  }

  static let badHost = uniqueHost("bad")

  @Test(
    "bad input: a message, exit status 1, nothing written and nothing cached",
    .enabled(if: KeyringOracle.isAvailable, "needs keyctl"),
    arguments: BadRequest.all(host: badHost))
  func badInput(_ bad: BadRequest) throws {
    let name = "secretfield-git;protocol=https;host=\(Self.badHost);username=alice"
    defer { KeyringOracle.remove(name) }
    let run = try runCredentialTool([bad.operation], request: bad.request)
    #expect(run.status == .exited(1))
    #expect(run.error.contains(bad.mentions), "\(run.error)")
    #expect(run.error.hasPrefix("secretfield credential: "), "\(run.error)")
    #expect(run.output.isEmpty)
    #expect(KeyringOracle.serial(name) == nil, "bad input cached a credential")
  }

  @Test(
    "control: the same request, well formed, is cached",
    .enabled(if: KeyringOracle.isAvailable, "needs keyctl"))
  func goodInputIsCached() throws {
    let host = uniqueHost("good")
    let name = "secretfield-git;protocol=https;host=\(host);username=alice"
    defer { KeyringOracle.remove(name) }
    let run = try runCredentialTool(
      ["store"], request: Array("protocol=https\nhost=\(host)\nusername=alice\npassword=pw\n".utf8))
    #expect(run.status == .exited(0), "\(run.error)")
    #expect(KeyringOracle.payload(name) == Array("pw".utf8))
  }

  @Test("input that never ends: the deadline, exit status 124, nothing cached")
  func inputDeadline() throws {
    let host = uniqueHost("deadline")
    // Standard input is the terminal: it stays open, and the request never
    // gets its blank line.
    var options = TerminalSession.Options()
    options.standardOutput = .captured
    options.standardError = .captured
    let session = try TerminalSession(
      executable: secretfield, arguments: ["credential", "--input-timeout", "1", "store"],
      options: options)
    try session.type("protocol=https\nhost=\(host)\nusername=alice\npassword=pw\n")
    #expect(try session.waitForExit() == .exited(124))
    #expect(try session.standardError().contains("did not end"))
    #expect(
      KeyringOracle.serial("secretfield-git;protocol=https;host=\(host);username=alice") == nil)
  }

  @Test(
    "an operation of a later git is ignored, as gitcredentials(7) asks: exit 0, nothing written")
  func otherOperation() throws {
    let run = try runCredentialTool(["capability"], request: Array("protocol=https\n".utf8))
    #expect(run.status == .exited(0))
    #expect(run.output.isEmpty && run.error.isEmpty)
  }

  @Test("the command line: one operation, --timeout in whole seconds, --input-timeout")
  func arguments() throws {
    let parsed = try CredentialCommand(arguments: ["--timeout", "60", "--input-timeout=2.5", "get"])
    #expect(parsed.operation == .get)
    #expect(parsed.timeout == 60)
    #expect(parsed.inputTimeout == .milliseconds(2500))
    #expect(try CredentialCommand(arguments: ["store"]).timeout == 900)
    for bad in [
      [], ["get", "store"], ["--timeout", "0", "get"], ["--timeout", "1.5", "get"],
      ["--frob", "get"],
    ] {
      #expect(throws: UsageError.self, "\(bad)") { try CredentialCommand(arguments: bad) }
    }
  }

  @Test(
    "secretfield forget --git URL removes what the URL asks for; a URL with a password is refused",
    .enabled(if: KeyringOracle.isAvailable, "needs keyctl"))
  func forget() throws {
    let host = uniqueHost("forget")
    let names = ["a.git", "b.git"].map {
      "secretfield-git;protocol=https;host=\(host);path=\($0);username=alice"
    }
    defer { for name in names { KeyringOracle.remove(name) } }
    for path in ["a.git", "b.git"] {
      let run = try runCredentialTool(
        ["store"],
        request: Array(
          "protocol=https\nhost=\(host)\npath=\(path)\nusername=alice\npassword=pw\n".utf8))
      #expect(run.status == .exited(0), "\(run.error)")
    }
    let one = try runWithoutTerminal(["forget", "--git", "https://alice@\(host)/a.git"])
    #expect(one.status == .exited(0), "\(one.error)")
    #expect(KeyringOracle.serial(names[0]) == nil)
    #expect(KeyringOracle.serial(names[1]) != nil)
    let all = try runWithoutTerminal(["forget", "--git", "https://\(host)"])
    #expect(all.status == .exited(0))
    #expect(KeyringOracle.serial(names[1]) == nil)
    let none = try runWithoutTerminal(["forget", "--git", "https://\(host)"])
    #expect(none.status == .exited(0))
    #expect(none.error.contains("no git credential is cached"))

    let secret = try runWithoutTerminal(["forget", "--git", "https://alice:hunter2@\(host)"])
    #expect(secret.status == .exited(2))
    #expect(!secret.error.contains("hunter2"), "\(secret.error)")
    #expect(throws: UsageError.self) { try ForgetCommand(arguments: ["--git", "example.com"]) }
    #expect(throws: UsageError.self) { try ForgetCommand(arguments: ["--git", "https://h", "x"]) }
  }

  @Test("no terminal to ask on: exit status 3, a message, nothing written to git")
  func noTerminal() throws {
    let run = try runCredentialTool(
      ["get"], request: Array("protocol=https\nhost=\(uniqueHost("noterm"))\n\n".utf8))
    #expect(run.status == .exited(3))
    #expect(run.output.isEmpty)
    #expect(run.error.contains("no terminal"), "\(run.error)")
  }

  /// The repository's root, from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test("each option of credential and forget --git is in the man page and in each completion")
  func documented() throws {
    let files = [
      "Documentation/man/secretfield.1", "Documentation/completions/secretfield.bash",
      "Documentation/completions/_secretfield", "Documentation/completions/secretfield.fish",
    ]
    for file in files {
      let text = try String(contentsOfFile: Self.packageRoot + "/" + file, encoding: .utf8)
      // man(7) writes a dash as \-; fish names a long option without its dashes.
      let plain = text.replacingOccurrences(of: "\\-", with: "-")
      for option in ["credential", "--timeout", "--input-timeout", "--git"] {
        let bare = option.hasPrefix("--") ? String(option.dropFirst(2)) : option
        #expect(
          plain.contains(option) || (file.hasSuffix(".fish") && plain.contains("-l \(bare)")),
          "\(option) is not in \(file)")
      }
    }
  }
}

/// Seconds until the key called `name` expires, from `/proc/keys`; nil when
/// it is not there or never expires.
func keyTimeout(_ name: String) throws -> Int? {
  guard let serial = KeyringOracle.serial(name) else { return nil }
  let keys = try String(contentsOfFile: "/proc/keys", encoding: .utf8)
  let hex = String(serial, radix: 16)
  for line in keys.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count > 3, fields[0] == hex || fields[0] == hex.leftPadded(to: 8) else { continue }
    let timeout = fields[3]
    if let seconds = Int(timeout.dropLast()), timeout.hasSuffix("s") { return seconds }
    if let minutes = Int(timeout.dropLast()), timeout.hasSuffix("m") { return minutes * 60 }
    if let hours = Int(timeout.dropLast()), timeout.hasSuffix("h") { return hours * 3600 }
    return nil
  }
  return nil
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
