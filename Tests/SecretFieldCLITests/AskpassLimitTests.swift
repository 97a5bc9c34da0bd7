import Glibc
import PTYSupport
import SecretFieldCLI
import SecretFieldTerminal
import Testing
import ToolSupport

@Suite("secretfield-askpass refuses a passphrase its caller would cut")
struct AskpassLimitTests {
  @Test(
    "ssh's programs, or SSH_ASKPASS_PROMPT, are OpenSSH; anything else has no known limit",
    arguments: [
      ("ssh", nil, AskpassCaller.openSSH), ("ssh-add", nil, .openSSH),
      ("ssh-keygen", nil, .openSSH), ("ssh-agent", "confirm", .openSSH),
      ("bash", "none", .openSSH), ("sudo", nil, .other), ("git", nil, .other),
      ("git-remote-http", nil, .other), ("sshfs", nil, .other), (nil, nil, .other),
    ] as [(String?, String?, AskpassCaller)])
  func detection(_ example: (String?, String?, AskpassCaller)) {
    let caller = AskpassCaller(parentName: example.0) {
      $0 == "SSH_ASKPASS_PROMPT" ? example.1 : nil
    }
    #expect(caller == example.2)
    #expect(caller.maximumAnswerByteCount == (example.2 == .openSSH ? 1023 : nil))
  }

  /// A program named `name` (a link to `/bin/sh`) that runs the askpass as its
  /// child, as ssh-add does, and passes on its status.
  static func askpassUnder(
    _ name: String, environment: [String: String] = [:], waitsForPrompt: Bool = true
  ) throws -> (session: TerminalSession, link: String) {
    // Its own directory: the cases run in parallel, and each removes its link.
    let directory = "/tmp/sf-askpass-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    mkdir(directory, 0o700)
    let link = "\(directory)/\(name)"
    unlink(link)
    try #require(symlink("/bin/sh", link) == 0)
    var options = TerminalSession.Options()
    options.standardOutput = .captured
    options.standardError = .captured
    options.environment.merge(environment) { $1 }
    let session = try TerminalSession(
      executable: link, arguments: ["-c", "'\(secretfieldAskpass)' 'Passphrase:'; exit $?"],
      options: options)
    if waitsForPrompt { try session.waitForText("Passphrase:") }
    return (session, link)
  }

  /// Removes a link ``askpassUnder(_:environment:waitsForPrompt:)`` made,
  /// and its directory.
  static func remove(_ link: String) {
    unlink(link)
    rmdir(String(link[..<(link.lastIndex(of: "/") ?? link.endIndex)]))
  }

  static func paste(_ text: String) -> [UInt8] {
    Array("\u{1B}[200~\(text)\u{1B}[201~".utf8)
  }

  @Test("under ssh-add: a paste past 1,023 bytes, and a key past it, are refused and say why")
  func underSSH() throws {
    let (session, link) = try Self.askpassUnder("ssh-add")
    defer { Self.remove(link) }
    try session.type(bytes: Self.paste(String(repeating: "a", count: 1024)))
    try session.waitForText("Not pasted: ssh keeps only the first 1023 bytes of a passphrase.")
    try session.type(bytes: Self.paste(String(repeating: "a", count: 1023)))
    try session.type("b")
    try session.waitForText("ssh keeps only the first 1023 bytes of a passphrase, so it can't")
    try session.submit(expectingOutput: String(repeating: "a", count: 1023) + "\n")
  }

  @Test("the control: under another program, 1,200 bytes and more are taken")
  func underAnotherProgram() throws {
    let (session, link) = try Self.askpassUnder("git")
    defer { Self.remove(link) }
    try session.type(bytes: Self.paste(String(repeating: "é", count: 600)))
    try session.type("b")
    try session.submit(expectingOutput: String(repeating: "é", count: 600) + "b\n")
  }

  @Test(
    "under ssh-add, a passphrase from SECRETFIELD_PASSWORD_FROM past 1,023 bytes is refused",
    arguments: [1023, 1024])
  func fromSourceUnderSSH(_ count: Int) throws {
    let passphrase = String(repeating: "s", count: count)
    let (session, link) = try Self.askpassUnder(
      "ssh-add", environment: ["SECRETFIELD_PASSWORD_FROM": "env:SF_PW", "SF_PW": passphrase],
      waitsForPrompt: false)
    defer { Self.remove(link) }
    if count <= 1023 {
      #expect(try session.waitForExit() == .exited(0))
      #expect(try session.standardOutput() == passphrase + "\n")
    } else {
      let status = try session.waitForExit()
      let error = try session.standardError()
      #expect(status == .exited(1), "\(status): \(error)")
      #expect(try session.standardOutput() == "")
      #expect(error.contains("ssh keeps only the first 1023"), "\(error)")
    }
  }
}
