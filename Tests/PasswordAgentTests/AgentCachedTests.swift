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
  /// Asks `message` with `options`, and checks that the agent asks it on
  /// the pty and sends what is typed there.
  static func expectAsked(
    _ message: String, options: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let namespace = try AskPasswordNamespace()
    let asker = try namespace.ask(message, options: options)
    let session = try namespace.startQueryAgent(waitingFor: message)
    try session.type(keys: ["t", "y", "p", "e", "d"])
    try session.waitForMasks(5, after: message)
    try session.type(Key.enter)
    #expect(try session.waitForExit() == .exited(0), sourceLocation: sourceLocation)
    #expect(asker.finish().output == Array("typed\n".utf8), sourceLocation: sourceLocation)
  }

  /// Adds `payload` to the user keyring under a unique name made from
  /// `prefix`, and returns the name, which the caller removes.
  static func cache(_ payload: String, as prefix: String) throws -> String {
    let name = KeyringOracle.uniqueName(prefix)
    guard KeyringOracle.add(name, payload: Array(payload.utf8)) != nil else {
      KeyringOracle.remove(name)
      throw HarnessError("cannot add \(name) to the keyring")
    }
    return name
  }

  @Test("a key cached under the Id answers unasked: no prompt, the exact passphrase printed")
  func cachedAnswers() throws {
    let name = try Self.cache("cachéd pass", as: "agent-cached")
    defer { KeyringOracle.remove(name) }
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
    let name = try Self.cache("first\u{0}second", as: "agent-cached-list")
    defer { KeyringOracle.remove(name) }
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
    try Self.expectAsked("Uncached disk:", options: ["--accept-cached", "--id=\(name)"])
  }

  @Test("AcceptCached=0 is asked even with a key cached under its Id")
  func notAcceptingAsks() throws {
    let name = try Self.cache("cached", as: "agent-not-accepted")
    defer { KeyringOracle.remove(name) }
    try Self.expectAsked("Strict disk:", options: ["--id=\(name)"])
  }
}
