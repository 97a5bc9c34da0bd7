import Glibc
import SecretFieldCLI
import SecureMemory
import Testing
import ToolSupport

/// A secure buffer holding `text`'s bytes (test data).
private func buffer(_ bytes: [UInt8]) throws -> SecureBuffer {
  var buffer = try SecureBuffer(capacity: max(1, bytes.count))
  try buffer.append(count: bytes.count) { (spare: UnsafeMutableRawBufferPointer) throws(Never) in
    spare.copyBytes(from: bytes)
  }
  return buffer
}

/// The text of a secure buffer (test oracle only).
private func text(_ buffer: borrowing SecureBuffer?) -> String? {
  switch buffer {
  case .some(let buffer): buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  case .none: nil
  }
}

/// git's credential protocol as `secretfield credential` reads it, without a
/// process: requests parsed from a secure buffer.
@Suite("The credential protocol: requests git sends, and those it never sends")
struct CredentialProtocolTests {
  @Test(
    "every attribute git sends is read; CRLF line ends are taken; array and unknown keys are passed over"
  )
  func readsAttributes() throws {
    let input = try buffer(
      Array(
        ("protocol=https\r\nhost=example.com:8443\npath=team/repo.git\nusername=alice\n"
          + "password=s3 cret=é\npassword_expiry_utc=1900000000\noauth_refresh_token=tok\n"
          + "capability[]=authtype\ncapability[]=state\nwwwauth[]=Basic realm=\"x\"\n"
          + "ephemeral=1\nsomething-new=value\n").utf8))
    let request = try CredentialRequest(parsing: input, storage: .sodium)
    #expect(request.protocolName == "https")
    #expect(request.host == "example.com:8443")
    #expect(request.path == "team/repo.git")
    #expect(request.username == "alice")
    #expect(text(request.password) == "s3 cret=é")
    #expect(request.passwordExpiry == 1_900_000_000)
    #expect(text(request.oauthRefreshToken) == "tok")
    let target = try request.target(for: "get")
    #expect(
      target
        == CredentialTarget(
          protocolName: "https", host: "example.com:8443", path: "team/repo.git",
          username: "alice"))
  }

  @Test("url= gives the parts git would take from it; a key of its own wins")
  func url() throws {
    let input = try buffer(
      Array("url=https://bob%40corp@example.com/a/b.git/\nhost=other.example\n".utf8))
    let request = try CredentialRequest(parsing: input, storage: .sodium)
    let target = try request.target(for: "get")
    #expect(target.protocolName == "https")
    #expect(target.host == "other.example")
    #expect(target.path == "a/b.git")
    #expect(target.username == "bob@corp")
  }

  @Test("what follows a blank line is not read")
  func blankLineEnds() throws {
    let input = try buffer(Array("protocol=https\nhost=a\n\nhost=b\nnot a line\n".utf8))
    let request = try CredentialRequest(parsing: input, storage: .sodium)
    #expect(request.host == "a")
  }

  struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let code: CredentialError.Code
    let mentions: String
    var testDescription: String { name }

    static let all = [
      BadInput(
        name: "a line without =", bytes: Array("protocol=https\nhost\n".utf8),
        code: .malformedLine, mentions: "line 2"),
      BadInput(
        name: "a line with nothing before =", bytes: Array("=x\n".utf8), code: .malformedLine,
        mentions: "line 1"),
      BadInput(
        name: "a NUL byte in a password", bytes: Array("host=a\npassword=se".utf8) + [0] + [0x0A],
        code: .nulByte, mentions: "line 2"),
      BadInput(
        name: "a value over 64 KiB",
        bytes: Array("host=".utf8) + Array(repeating: 0x61, count: 65_537),
        code: .valueTooLong, mentions: "64 KiB"),
      BadInput(
        name: "an array value over 64 KiB",
        bytes: Array("wwwauth[]=".utf8) + Array(repeating: 0x61, count: 65_537),
        code: .valueTooLong, mentions: "wwwauth[]"),
      BadInput(
        name: "a duplicate key", bytes: Array("host=a\nprotocol=https\nhost=b\n".utf8),
        code: .duplicateKey, mentions: "host is given twice"),
      BadInput(
        name: "a duplicate password", bytes: Array("password=a\npassword=b\n".utf8),
        code: .duplicateKey, mentions: "password is given twice"),
      BadInput(
        name: "a url with a password", bytes: Array("url=https://bob:hunter2@example.com/\n".utf8),
        code: .invalidValue, mentions: "holds a password"),
      BadInput(
        name: "a url without a protocol", bytes: Array("url=example.com/x\n".utf8),
        code: .invalidValue, mentions: "protocol"),
      BadInput(
        name: "a user name that is not UTF-8", bytes: Array("username=".utf8) + [0xFF, 0x0A],
        code: .invalidValue, mentions: "UTF-8"),
      BadInput(
        name: "an expiry that is no number", bytes: Array("password_expiry_utc=soon\n".utf8),
        code: .invalidValue, mentions: "seconds"),
    ]
  }

  @Test(
    "bad input: an error with its code and a message that quotes nothing of the request",
    arguments: BadInput.all)
  func badInput(_ bad: BadInput) throws {
    let input = try buffer(bad.bytes)
    var caught: CredentialError?
    do { _ = try CredentialRequest(parsing: input, storage: .sodium) } catch { caught = error }
    let error = try #require(caught)
    #expect(error.code == bad.code)
    #expect(error.description.contains(bad.mentions), "\(error)")
    #expect(!error.description.contains("hunter2") && !error.description.contains("se\u{0}"))
  }

  @Test("a request with no host, or an empty one, cannot be answered")
  func missingHost() throws {
    for request in ["protocol=https\n", "protocol=https\nhost=\n", "host=a\n"] {
      let parsed = try CredentialRequest(parsing: try buffer(Array(request.utf8)), storage: .sodium)
      #expect(throws: CredentialError.self) { try parsed.target(for: "get") }
    }
  }

  @Test("a target asks for what matches each part it has, as git-credential-cache matches")
  func matching() {
    let stored = CredentialTarget(
      protocolName: "https", host: "h", path: "a.git", username: "alice")
    #expect(CredentialTarget(protocolName: "https", host: "h").matches(stored))
    #expect(CredentialTarget(protocolName: "https", host: "h", path: "a.git").matches(stored))
    #expect(!CredentialTarget(protocolName: "https", host: "h", path: "b.git").matches(stored))
    #expect(!CredentialTarget(protocolName: "http", host: "h").matches(stored))
    #expect(!CredentialTarget(protocolName: "https", host: "h", username: "bob").matches(stored))
    #expect(!CredentialTarget(protocolName: "https", host: "h:8443").matches(stored))
  }

  @Test("a key's name holds each part, percent-encoded where needed, and reads back")
  func keyNames() throws {
    let target = CredentialTarget(
      protocolName: "https", host: "example.com", path: "a b;c=d%e/é.git", username: "al;ice")
    let name = CredentialCache.keyName(for: target, expiry: 1_900_000_000)
    #expect(
      name
        == "secretfield-git;protocol=https;host=example.com;path=a%20b%3Bc%3Dd%25e/é.git;"
        + "username=al%3Bice;password_expiry_utc=1900000000")
    let entry = try #require(CredentialCache.entry(named: name))
    #expect(entry.target == target)
    #expect(entry.expiry == 1_900_000_000)
    #expect(CredentialCache.entry(named: "cryptsetup") == nil)
  }

  @Test("the answer refuses a value with a line break or a NUL, and writes nothing")
  func answerRefusesLineBreaks() throws {
    for bad in ["pass\nword", "pass\rword", "pass\u{0}word"] {
      var reply = try CredentialReply(storage: .sodium)
      try reply.append("username", text: "alice", what: "user name")
      let secret = try buffer(Array(bad.utf8))
      #expect(throws: CredentialError.self) {
        try secret.withUnsafeBytes { bytes throws(CredentialError) in
          try reply.append("password", secret: bytes, what: "password")
        }
      }
    }
    var reply = try CredentialReply(storage: .sodium)
    #expect(throws: CredentialError.self) {
      try reply.append("username", text: "ali\nce", what: "user name")
    }
  }
}
