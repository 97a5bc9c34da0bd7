import Glibc
import Pinentry
import SecretFieldCLI
import Testing

/// The directory of the running test binary, where SwiftPM puts the
/// executables the tests depend on.
private func executableBesideTests(_ name: String) -> String {
  var buffer = [CChar](repeating: 0, count: 4096)
  let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  let path =
    count > 0
    ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
  return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) + "/" + name
}

private let scriptedPinentry = executableBesideTests("PinentryScripted")
private let haveGnuPG = access("/usr/bin/gpg-agent", X_OK) == 0 && access("/usr/bin/gpg", X_OK) == 0

/// A GnuPG home whose agent runs `PinentryScripted`: our session with a
/// scripted user instead of the terminal prompt.
private final class ScriptedAgent {
  let home: GnuPGHome

  /// `answers`: the script's lines, such as `enter <percent-escaped>`.
  init(answers: [String]) throws {
    let home = try GnuPGHome(pinentryProgram: scriptedPinentry)
    self.home = home
    try home.writeFile("script", Array((answers.joined(separator: "\n") + "\n").utf8))
  }

  var scriptEnvironment: [String] {
    [
      "SECRETFIELD_PINENTRY_SCRIPT=\(home.path)/script",
      "SECRETFIELD_PINENTRY_LOG=\(home.path)/log",
    ]
  }

  /// Runs `gpg-connect-agent` with `commands` and returns its output lines.
  func connect(_ commands: [String]) throws -> [String] {
    let (_, output) = try home.run(
      "/usr/bin/gpg-connect-agent", commands + ["/bye"], environment: scriptEnvironment)
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Writes `text` to `plain.txt` and runs `gpg --symmetric` on it, into
  /// `enc.gpg`, asking through the scripted pinentry; gpg's exit code.
  func encryptSymmetric(_ text: String) throws -> Int32? {
    try home.writeFile("plain.txt", Array(text.utf8))
    return try home.run(
      "/usr/bin/gpg",
      [
        "--pinentry-mode", "ask", "--symmetric", "-o", "\(home.path)/enc.gpg",
        "\(home.path)/plain.txt",
      ],
      environment: scriptEnvironment
    ).exitCode
  }

  /// The requests the pinentry logged, each as its fields.
  var requests: [[String: String]] {
    home.readFile("log").split(separator: "\n").map { line in
      var fields: [String: String] = [:]
      let words = line.split(separator: " ")
      fields["request"] = String(words.first ?? "")
      for word in words.dropFirst() {
        let parts = word.split(separator: "=", maxSplits: 1)
        let value = parts.count > 1 ? String(parts[1]) : ""
        fields[String(parts[0])] =
          value == "-"
          ? nil : String(decoding: AssuanEscaping.percentDecoded(Array(value.utf8)), as: UTF8.self)
      }
      return fields
    }
  }
}

/// Percent-escapes `text` for a script line, as a D line would carry it.
private func scriptEscaped(_ text: String) -> String {
  String(decoding: text.utf8.flatMap(dataLineEscape), as: UTF8.self)
}

@Suite(
  "A real gpg-agent (2.2.40 here) talks to our session",
  .enabled(if: haveGnuPG && access(scriptedPinentry, X_OK) == 0))
struct PinentryAgentTests {
  @Test("GET_PASSPHRASE returns exactly the passphrase, %, +, spaces, CR, LF and UTF-8 included")
  func passphraseArrives() throws {
    let passphrase = "a%b+c d ü€\r\nend"
    let agent = try ScriptedAgent(answers: ["enter \(scriptEscaped(passphrase))"])
    let lines = try agent.connect(["GET_PASSPHRASE --data X X Prompt Desc%20here"])
    try #require(lines.count == 2, "\(lines)")
    #expect(lines[1] == "OK")
    #expect(lines[0].hasPrefix("D "))
    #expect(AssuanEscaping.percentDecoded(lines[0].utf8.dropFirst(2)) == Array(passphrase.utf8))
    let request = try #require(agent.requests.first)
    #expect(request["prompt"] == "Prompt" && request["description"] == "Desc here")
  }

  @Test("a cancel reaches the client as the pinentry's cancel error")
  func cancelArrives() throws {
    let agent = try ScriptedAgent(answers: ["cancel"])
    let lines = try agent.connect(["GET_PASSPHRASE --data X X Prompt Desc"])
    #expect(lines == ["ERR 83886179 Operation cancelled <Pinentry>"])
  }

  @Test("with --qualitybar the agent answers our INQUIRE QUALITY with a score")
  func qualityInquiry() throws {
    let agent = try ScriptedAgent(answers: ["enter-rating Tr0ub4dor&3 horse staple"])
    let lines = try agent.connect(["GET_PASSPHRASE --data --qualitybar X X Prompt Desc"])
    #expect(lines == ["D Tr0ub4dor&3 horse staple", "OK"])
    let request = try #require(agent.requests.first)
    #expect(request["qualitybar"] == "Quality:")
    let score = try #require(
      request["quality"].flatMap { Int($0) }, "the agent answered with a number")
    #expect((-100...100).contains(score))
  }

  @Test("gpg --symmetric asks with SETREPEAT; a mismatch asks again; gpg --passphrase decrypts")
  func symmetricEncryption() throws {
    let passphrase = "Corr3ct horse%battery+staple"
    let agent = try ScriptedAgent(answers: [
      "enter \(scriptEscaped(passphrase))", "enter \(scriptEscaped(passphrase))x",
      "enter \(scriptEscaped(passphrase))", "enter \(scriptEscaped(passphrase))",
    ])
    #expect(try agent.encryptSymmetric("attack at dawn\n") == 0)
    let requests = agent.requests
    #expect(
      requests.map { $0["stage"] } == ["passphrase", "repetition", "passphrase", "repetition"])
    #expect(requests.map { $0["error"] } == [nil, nil, "does not match - try again", nil])

    agent.home.killAgent()
    let decrypt = try agent.home.run(
      "/usr/bin/gpg",
      [
        "--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase, "-d",
        "\(agent.home.path)/enc.gpg",
      ])
    #expect(String(decoding: decrypt.output, as: UTF8.self) == "attack at dawn\n")
    #expect(decrypt.exitCode == 0)
  }

  @Test("a weak passphrase makes the agent ask CONFIRM with its own buttons; confirming keeps it")
  func weakPassphraseConfirm() throws {
    let agent = try ScriptedAgent(answers: ["enter weak", "enter weak", "confirm"])
    #expect(try agent.encryptSymmetric("x\n") == 0)
    let confirm = try #require(agent.requests.last)
    #expect(confirm["request"] == "CONFIRM")
    #expect(confirm["ok"] == "Take this one anyway")
    #expect(confirm["cancel"] == "Enter new passphrase")
  }
}
