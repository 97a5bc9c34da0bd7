import Foundation
import Glibc
import PTYSupport
import TestSupport
import Testing

/// `AcceptCached=1`: a passphrase cached in the kernel keyring under the
/// request's `Id=` answers the real `systemd-ask-password --no-tty
/// --accept-cached` without a prompt. Keys are uniquely named and removed
/// after each test, whatever its outcome.
///
/// The key name is the `Id=` only: the asker itself looks up just its
/// `--keyname` (none given here), so an answer can only have come from the
/// agent. The `cryptsetup` name is not set here: it is the machine's own.
@Suite(
  "secretfield agent answers AcceptCached=1 from the kernel keyring",
  .enabled(
    if: AskPasswordNamespace.isAvailable && KeyringOracle.isAvailable,
    "needs root, unshare, nsenter, systemd-ask-password and keyctl"))
struct AgentCachedTests {
  @Test("a key cached under the Id answers unasked: no prompt, the exact passphrase printed")
  func cachedAnswers() throws {
    let name = KeyringOracle.uniqueName("agent-cached")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("cachéd pass".utf8)) != nil)
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Cached disk:", options: ["--accept-cached", "--id=\(name)"])
    let session = try namespace.startAgent(["--query"])
    #expect(try session.waitForExit() == .exited(0))
    let answer = asker.finish()
    #expect(answer.status == 0)
    #expect(answer.output == Array("cachéd pass\n".utf8))
    #expect(!(try session.screen().shows("Cached disk:")))
    #expect(!(try session.screen().shows("Password request")))
    #expect(try session.standardError().contains("answered with the passphrase cached under"))
    #expect(try session.attributes() == session.initialAttributes)
  }

  @Test("every passphrase cached under the name is sent, in order, as systemd's agents send a list")
  func cachedListSent() throws {
    let name = KeyringOracle.uniqueName("agent-cached-list")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("first\u{0}second".utf8)) != nil)
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask(
      "Listed disk:", options: ["--accept-cached", "--multiple", "--id=\(name)"])
    let session = try namespace.startAgent(["--query"])
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("first\nsecond\n".utf8))
    #expect(!(try session.screen().shows("Listed disk:")))
  }

  @Test("control: AcceptCached=1 with nothing cached under the Id is asked on the pty")
  func uncachedAsks() throws {
    let name = KeyringOracle.uniqueName("agent-uncached")
    defer { KeyringOracle.remove(name) }
    #expect(KeyringOracle.serial(name) == nil)
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Uncached disk:", options: ["--accept-cached", "--id=\(name)"])
    let session = try namespace.startQueryAgent(waitingFor: "Uncached disk:")
    try session.type(keys: ["t", "y", "p", "e", "d"])
    try session.waitForMasks(5, after: "Uncached disk:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("typed\n".utf8))
  }

  @Test("AcceptCached=0 is asked even with a key cached under its Id")
  func notAcceptingAsks() throws {
    let name = KeyringOracle.uniqueName("agent-not-accepted")
    defer { KeyringOracle.remove(name) }
    try #require(KeyringOracle.add(name, payload: Array("cached".utf8)) != nil)
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask("Strict disk:", options: ["--id=\(name)"])
    let session = try namespace.startQueryAgent(waitingFor: "Strict disk:")
    try session.type(keys: ["t", "y", "p", "e", "d"])
    try session.waitForMasks(5, after: "Strict disk:")
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0))
    #expect(asker.finish().output == Array("typed\n".utf8))
  }
}
