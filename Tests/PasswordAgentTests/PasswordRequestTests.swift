import PasswordAgent
import Testing

/// A request file and what parsing it must give.
struct RequestCase: CustomTestStringConvertible, Sendable {
  let name: String
  let text: String
  var testDescription: String { name }
}

/// A file that is not a request, and the code it must be refused with.
struct MalformedCase: CustomTestStringConvertible, Sendable {
  let name: String
  let bytes: [UInt8]
  let code: PasswordRequestError.Code
  var line: Int? = nil
  var testDescription: String { name }

  init(_ name: String, _ text: String, _ code: PasswordRequestError.Code, line: Int? = nil) {
    self.name = name
    bytes = Array(text.utf8)
    self.code = code
    self.line = line
  }

  init(_ name: String, bytes: [UInt8], _ code: PasswordRequestError.Code) {
    self.name = name
    self.bytes = bytes
    self.code = code
  }
}

@Suite("PasswordRequest: the [Ask] section of systemd's request files")
struct PasswordRequestTests {
  /// What systemd-ask-password 252 wrote on this machine (its PID and socket
  /// name aside), with every key it writes.
  static let written = """
    [Ask]
    PID=7614
    Socket=/run/systemd/ask-password/sck.5aaf34225e5394e4
    AcceptCached=0
    Echo=0
    NotAfter=470425708
    Silent=0
    Message=Disk passphrase:
    Icon=drive-harddisk
    Id=myid:x

    """

  @Test("systemd-ask-password's own file: every key read")
  func systemdFile() throws {
    let request = try PasswordRequest(parsing: Array(Self.written.utf8))
    #expect(request.processID == 7614)
    #expect(request.socketPath == "/run/systemd/ask-password/sck.5aaf34225e5394e4")
    #expect(request.acceptsCached == false)
    #expect(request.echoes == false)
    #expect(request.isSilent == false)
    #expect(request.notAfter == 470_425_708)
    #expect(request.message == "Disk passphrase:")
    #expect(request.icon == "drive-harddisk")
    #expect(request.id == "myid:x")
  }

  @Test(
    "the same request however the file is laid out",
    arguments: [
      RequestCase(
        name: "unknown keys and sections ignored",
        text:
          "[Other]\nSocket=/elsewhere\n[Ask]\nFuture=1\nPID=42\nSocket=/run/s\nMessage=Hi\nEcho=yes\n[Later]\nMessage=no\n"
      ),
      RequestCase(
        name: "CRLF, blanks and comments",
        text:
          "# made by hand\r\n[Ask]\r\n  PID = 42 \r\n; note\r\nSocket=/run/s\r\nMessage= Hi\r\nEcho=TRUE\r\n"
      ),
      RequestCase(
        name: "a later key replaces an earlier",
        text: "[Ask]\nPID=1\nPID=42\nSocket=/x\nSocket=/run/s\nMessage=Hi\nEcho=on\n"),
    ])
  func layouts(_ testCase: RequestCase) throws {
    let request = try PasswordRequest(parsing: Array(testCase.text.utf8))
    #expect(request.processID == 42)
    #expect(request.socketPath == "/run/s")
    #expect(request.message == "Hi")
    #expect(request.echoes)
    #expect(request.notAfter == 0)
    #expect(request.id == nil)
  }

  /// Found by FuzzPasswordRequest (FailCases/FuzzPasswordRequest/crash-63ab64f5…):
  /// read by Characters, a blank or `=` followed by a combining mark was one
  /// Character that was neither, so the blank stayed in the socket path and
  /// the `=` was not seen. systemd reads bytes; so does this parser now.
  @Test(
    "blanks and = are found by scalars, a combining mark after them notwithstanding",
    arguments: [
      ("[Ask]\nSocket = \u{301}/run/s\n", "\u{301}/run/s"),
      ("[Ask]\nSocket=\u{301}/run/s\n", "\u{301}/run/s"),
      ("[Ask]\nSocket=/run/s \t\u{34C}\n", "/run/s \t\u{34C}"),
      ("[Ask]\n Socket\t=\t/run/s\u{301} \n", "/run/s\u{301}"),
    ])
  func combiningMarks(_ pair: (String, String)) throws {
    let request = try PasswordRequest(parsing: Array(pair.0.utf8))
    #expect(Array(request.socketPath.unicodeScalars) == Array(pair.1.unicodeScalars))
  }

  @Test(
    "a file that is not a request is refused with what is wrong",
    arguments: [
      MalformedCase("empty", "", .noAskSection),
      MalformedCase("no [Ask]", "[Other]\nSocket=/run/s\n", .noAskSection),
      MalformedCase("no Socket", "[Ask]\nMessage=Hi\n", .missingSocket),
      MalformedCase("empty Socket", "[Ask]\nSocket=\n", .missingSocket),
      MalformedCase("a line without =", "[Ask]\nSocket=/run/s\ngarbage\n", .malformedLine, line: 3),
      MalformedCase("an unclosed section", "[Ask\nSocket=/run/s\n", .malformedLine, line: 1),
      MalformedCase("PID not a number", "[Ask]\nSocket=/run/s\nPID=-5\n", .invalidValue, line: 3),
      MalformedCase("PID too large", "[Ask]\nSocket=/run/s\nPID=99999999999\n", .invalidValue),
      MalformedCase(
        "NotAfter not a number", "[Ask]\nSocket=/run/s\nNotAfter=soon\n", .invalidValue),
      MalformedCase(
        "NotAfter overflows", "[Ask]\nSocket=/run/s\nNotAfter=99999999999999999999999\n",
        .invalidValue),
      MalformedCase("Echo not a boolean", "[Ask]\nSocket=/run/s\nEcho=maybe\n", .invalidValue),
      MalformedCase("a NUL byte", bytes: Array("[Ask]\nSocket=/run/s\0x\n".utf8), .containsNul),
      MalformedCase(
        "not UTF-8", bytes: Array("[Ask]\nSocket=/run/s\nMessage=".utf8) + [0xFF, 0xFE], .notUTF8),
      MalformedCase(
        "larger than 32 KiB",
        bytes: Array("[Ask]\nSocket=/run/s\n".utf8) + [UInt8](repeating: 0x23, count: 40_000),
        .tooLarge),
    ])
  func malformed(_ testCase: MalformedCase) {
    #expect {
      _ = try PasswordRequest(parsing: testCase.bytes)
    } throws: { error in
      guard let error = error as? PasswordRequestError else { return false }
      return error.code == testCase.code && (testCase.line == nil || error.line == testCase.line)
    }
  }

  @Test("the fuzzer's entry point parses bytes lent for the call")
  func parseEntryPoint() throws {
    let bytes = Array(Self.written.utf8)
    let request = try bytes.withUnsafeBytes { try PasswordRequest.parse($0) }
    #expect(request == (try PasswordRequest(parsing: bytes)))
  }

  @Test(
    "a message's control characters are shown as escapes, never as themselves",
    arguments: [
      ("Disk \u{1B}[31mred", "Disk \\e[31mred"),
      ("bell\u{07}", "bell\\x07"),
      ("two\nlines\r", "two\\nlines\\r"),
      ("C1 \u{9B}2J", "C1 \\u{009B}2J"),
      ("bidi \u{202E}txt", "bidi \\u{202E}txt"),
      ("a \\e backslash", "a \\\\e backslash"),
      ("Passphrase for /dev/sda5 (luks-ü):", "Passphrase for /dev/sda5 (luks-ü):"),
    ])
  func escaping(_ pair: (String, String)) {
    var request = PasswordRequest(socketPath: "/run/s")
    request.message = pair.0
    #expect(request.displayMessage == pair.1)
    #expect(!request.displayMessage.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
  }

  @Test("NotAfter: microseconds of CLOCK_MONOTONIC, 0 for none")
  func deadline() throws {
    var request = PasswordRequest(socketPath: "/run/s")
    #expect(request.remainingMicroseconds(at: 5) == nil)
    #expect(!request.hasExpired(at: .max))
    request.notAfter = 1_000
    #expect(request.remainingMicroseconds(at: 400) == 600)
    #expect(!request.hasExpired(at: 1_000))
    #expect(request.hasExpired(at: 1_001))
    let now = PasswordRequest.monotonicNow()
    #expect(now > 0)
    #expect(PasswordRequest.monotonicNow() >= now)
  }
}
