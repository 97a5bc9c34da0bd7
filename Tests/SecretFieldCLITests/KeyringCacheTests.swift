import Glibc
import PTYSupport
import SecretFieldCLI
import TestSupport
import Testing
import ToolSupport

/// systemd's own program, the peer the cache must agree with.
let systemdAskPassword = "/usr/bin/systemd-ask-password"

/// The real `systemd-ask-password` and `keyctl` are here, and this process may
/// make a mount namespace (root), where the program's request directory is a
/// private tmpfs: no test sees or answers a real password request.
let canRunSystemdAskPassword: Bool =
  isExecutable(systemdAskPassword) && KeyringOracle.isAvailable && getuid() == 0

/// `systemd-ask-password ARGUMENTS` as a command line that runs it inside its
/// own mount namespace, with a tmpfs over `/run/systemd/ask-password`.
func isolatedAskPassword(_ arguments: [String]) -> [String] {
  [
    "/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
    "mount -t tmpfs tmpfs /run/systemd/ask-password && exec \"$0\" \"$@\"", systemdAskPassword,
  ] + arguments
}

/// `systemd-ask-password --keyname=NAME` on a pty: types `passphrase` at its
/// prompt and checks that it printed it. The program caches what it read.
func typeIntoSystemdAskPassword(_ passphrase: String, keyname: String) throws {
  let command = isolatedAskPassword([
    "--keyname=\(keyname)", "--emoji=no", "--timeout=60", "Disk passphrase:",
  ])
  var options = TerminalSession.Options()
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: command[0], arguments: Array(command.dropFirst()), options: options)
  try session.waitForText("Disk passphrase:")
  try session.type(passphrase)
  try session.type(Key.enter)
  let status = try session.waitForExit()
  let error = try session.standardError()
  #expect(status == .exited(0), "\(error)")
  #expect(try session.standardOutput() == passphrase + "\n")
}

/// `systemd-ask-password --keyname=NAME --accept-cached --no-tty`: what it
/// prints of the cache, without a terminal (it would ask an agent when nothing
/// is cached; the timeout and the private request directory bound that).
/// Nil when it failed.
func systemdCached(_ keyname: String, multiple: Bool = false) -> String? {
  let command = isolatedAskPassword(
    ["--keyname=\(keyname)", "--accept-cached", "--no-tty", "--timeout=5"]
      + (multiple ? ["--multiple"] : []))
  guard let run = try? runProgram(command), run.status == 0 else { return nil }
  return run.output
}

/// `secretfield prompt ARGUMENTS` on a pty; types `passphrase` at the prompt
/// and expects it on standard output.
func typeIntoPrompt(_ passphrase: String, _ arguments: [String]) throws -> TerminalSession {
  let session = try startPrompt(arguments)
  try session.type(passphrase)
  try session.waitForMasks(passphrase.count)
  try session.submit(expectingOutput: passphrase + "\n")
  return session
}

/// `secretfield prompt --accept-cached` with something cached: it ends by
/// itself, without drawing a prompt.
func cachedFromPrompt(_ arguments: [String]) throws -> (status: ProcessStatus, output: String) {
  var options = TerminalSession.Options()
  options.standardOutput = .captured
  options.standardError = .captured
  let session = try TerminalSession(
    executable: secretfield, arguments: ["prompt"] + arguments, options: options)
  let status = try session.waitForExit()
  let screen = try session.screen()
  #expect(!screen.contains("Password:"), "no prompt was drawn: \(screen)")
  #expect(try session.standardError() == "")
  return (status, try session.standardOutput())
}

@Suite(
  "The --keyname cache agrees with systemd-ask-password, both ways",
  .enabled(if: canRunSystemdAskPassword, "needs systemd-ask-password, keyctl and root"))
struct KeyringInteropTests {
  @Test(
    "typed into secretfield prompt --keyname: systemd-ask-password prints it; a second is added")
  func storedByUs() throws {
    let name = KeyringOracle.uniqueName("cli-ours")
    defer { KeyringOracle.remove(name) }
    _ = try typeIntoPrompt("first pass", ["--keyname", name, "--cache-timeout", "60"])
    #expect(systemdCached(name) == "first pass\n")

    _ = try typeIntoPrompt("second", ["--keyname", name, "--cache-timeout", "60"])
    #expect(systemdCached(name) == "first pass\n", "the first stays first")
    #expect(systemdCached(name, multiple: true) == "first pass\nsecond\n")
    #expect(KeyringOracle.permissions(name) == KernelKeyringPermissions.expected)
  }

  @Test("typed into systemd-ask-password --keyname: written by --accept-cached with no prompt")
  func storedBySystemd() throws {
    let name = KeyringOracle.uniqueName("cli-systemd")
    defer { KeyringOracle.remove(name) }
    try typeIntoSystemdAskPassword("alpha", keyname: name)
    let first = try cachedFromPrompt(["--keyname", name, "--accept-cached"])
    #expect(first.status == .exited(0))
    #expect(first.output == "alpha\n")

    try typeIntoSystemdAskPassword("beta", keyname: name)
    let all = try cachedFromPrompt(["--keyname", name, "--accept-cached", "--multiple"])
    #expect(all.status == .exited(0))
    #expect(all.output == "alpha\nbeta\n", "systemd added the second after the first")

    // And ours is added after systemd's two, the key's permissions left as
    // systemd made them: the possessor reads, the user only views.
    let systemdPermissions = KeyringOracle.permissions(name)
    #expect(systemdPermissions == 0x3f01_0000)
    _ = try typeIntoPrompt("gamma", ["--keyname", name])
    #expect(KeyringOracle.payload(name) == Array("alpha\0beta\0gamma".utf8))
    #expect(systemdCached(name, multiple: true) == "alpha\nbeta\ngamma\n")
    #expect(KeyringOracle.permissions(name) == systemdPermissions)
  }
}

/// The permissions ``SecureMemory/KernelKeyring`` gives every key, written
/// out here so the test does not take them from the code under test.
enum KernelKeyringPermissions {
  static let expected: UInt32 = 0x2f2f_0000
}

@Suite(
  "secretfield prompt --keyname, forget and the askpass's SECRETFIELD_KEYNAME",
  .enabled(if: KeyringOracle.isAvailable, "needs keyutils' keyctl and a user keyring"))
struct KeyringCacheTests {
  @Test("--accept-cached with nothing cached asks, writes the answer and caches it")
  func asksWhenNothingCached() throws {
    let name = KeyringOracle.uniqueName("cli-ask")
    defer { KeyringOracle.remove(name) }
    let session = try typeIntoPrompt("typed once", ["--keyname", name, "--accept-cached"])
    #expect(try session.standardError() == "")
    #expect(KeyringOracle.payload(name) == Array("typed once".utf8))

    let again = try cachedFromPrompt(["--keyname", name, "--accept-cached"])
    #expect(again.status == .exited(0))
    #expect(again.output == "typed once\n")
  }

  @Test("without --accept-cached it asks even when something is cached, and adds the answer")
  func asksWithoutAcceptCached() throws {
    let name = KeyringOracle.uniqueName("cli-noaccept")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("old".utf8)) != nil)
    _ = try typeIntoPrompt("new", ["--keyname", name])
    #expect(KeyringOracle.payload(name) == Array("old\0new".utf8))
  }

  @Test("--cache-timeout 1: the cached answer is gone after it")
  func cacheTimeout() throws {
    let name = KeyringOracle.uniqueName("cli-timeout")
    defer { KeyringOracle.remove(name) }
    _ = try typeIntoPrompt("short-lived", ["--keyname", name, "--cache-timeout", "1"])
    #expect(KeyringOracle.waitUntilGone(name, bound: .seconds(60)))
  }

  @Test("forget removes what is cached; forgetting nothing says so and succeeds")
  func forget() throws {
    let name = KeyringOracle.uniqueName("cli-forget")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("cached".utf8)) != nil)
    let removed = try runWithoutTerminal(["forget", name])
    #expect(removed.status == .exited(0))
    #expect(removed.error == "")
    #expect(KeyringOracle.serial(name) == nil)

    let nothing = try runWithoutTerminal(["forget", name])
    #expect(nothing.status == .exited(0))
    #expect(nothing.error.contains("nothing is cached under '\(name)'"))
  }

  @Test(
    "a keyring a seccomp filter blocks: one warning line, then the prompt asks as usual",
    arguments: [EPERM, ENOSYS])
  func unreachable(_ errorNumber: Int32) async {
    await #expect(processExitsWith: .success) { [errorNumber] in
      precondition(KeyringBlock.install(failingWith: errorNumber), "seccomp filter refused")
      let name = KeyringOracle.uniqueName("cli-blocked")
      let session = try! startPrompt(["--keyname", name, "--accept-cached"])
      try! session.type("still asked")
      try! session.waitForMasks("still asked".count)
      try! session.type(Key.enter)
      #expect(try! session.waitForExit() == .exited(0))
      #expect(try! session.standardOutput() == "still asked\n")
      let warning = try! session.standardError()
      #expect(warning.split(separator: "\n").count == 1, "one line: \(warning)")
      #expect(
        warning.hasPrefix("secretfield prompt: warning: the kernel keyring cannot be reached"))
    }
  }

  @Test("the askpass with SECRETFIELD_KEYNAME asks once, then writes the cached answer")
  func askpass() throws {
    let name = KeyringOracle.uniqueName("cli-askpass")
    defer { KeyringOracle.remove(name) }
    let environment = ["SECRETFIELD_KEYNAME": name]
    let first = try startAskpass(
      ["Passphrase for key:"], environment: environment, waitingFor: "Passphrase for key:")
    try first.type("for ssh")
    try first.waitForMasks("for ssh".count, prompt: "Passphrase for key:")
    try first.submit(expectingOutput: "for ssh\n")
    #expect(KeyringOracle.payload(name) == Array("for ssh".utf8))

    let second = try startAskpass(["Passphrase for key:"], environment: environment)
    #expect(try second.waitForExit() == .exited(0))
    #expect(try second.standardOutput() == "for ssh\n")
    #expect(!(try second.screen()).contains("Passphrase for key:"), "asked nothing")
  }

  @Test("--password-from keyring:NAME: the cached passphrase without a prompt; none cached asks")
  func passwordFromKeyring() throws {
    let name = KeyringOracle.uniqueName("cli-source")
    defer { KeyringOracle.remove(name) }
    // Nothing cached: the source is not set, so the prompt asks; --keyname
    // caches the answer.
    _ = try typeIntoPrompt(
      "asked for", ["--password-from", "keyring:\(name)", "--keyname", name])
    let cached = try cachedFromPrompt(["--password-from", "keyring:\(name)"])
    #expect(cached.status == .exited(0))
    #expect(cached.output == "asked for\n")
  }

  @Test("the cache options need --keyname; --multiple needs --accept-cached")
  func usage() throws {
    for arguments in [
      ["--accept-cached"], ["--multiple"], ["--cache-timeout", "5"],
      ["--keyname", "k", "--multiple"],
    ] {
      #expect(throws: UsageError.self, "\(arguments)") { try PromptCommand(arguments: arguments) }
    }
    for arguments in [["--keyname", ""], ["--keyname", "k", "--cache-timeout", "0"]] {
      #expect(throws: UsageError.self, "\(arguments)") { try PromptCommand(arguments: arguments) }
    }
    let command = try PromptCommand(arguments: [
      "--keyname=backup", "--accept-cached", "--multiple", "--cache-timeout", "600",
    ])
    #expect(command.cache.keyname == "backup")
    #expect(command.cache.acceptsCached && command.cache.writesAll)
    #expect(command.cache.timeout == .seconds(600))
    #expect(throws: UsageError.self) { try ForgetCommand(arguments: []) }
    #expect(throws: UsageError.self) { try ForgetCommand(arguments: ["a", "b"]) }
  }
}
