/// One question a program asks through systemd's password agent protocol:
/// the `[Ask]` section of an `ask.*` file in the request directory.
///
/// The format, from systemd's `docs/PASSWORD_AGENTS.md` and its agents: an
/// `.ini` file; keys of other sections and unknown keys of `[Ask]` are
/// ignored, so the format can grow. `Socket=` is where the answer goes (an
/// `AF_UNIX`/`SOCK_DGRAM` socket); `Message=` the question, one line of UTF-8;
/// `Icon=` an XDG icon name; `Id=` what is asked for (as in
/// `cryptsetup:/dev/sda5`); `PID=` the asking process, to be ignored once it
/// is gone; `NotAfter=` a `CLOCK_MONOTONIC` deadline in microseconds (0 for
/// none); `Echo=1` to show the typing; `Silent=1` to show nothing of it;
/// `AcceptCached=1` when a passphrase cached in the kernel keyring may answer.
///
/// Nothing in a request is trusted: its text is shown only escaped
/// (``displayMessage``), its socket is checked before an answer goes there
/// (``RequestDirectory``).
public struct PasswordRequest: Sendable, Hashable {
  /// The answer's socket (`Socket=`), as written: ``RequestDirectory`` checks
  /// it is in the directory, a socket, and writable.
  public var socketPath: String
  /// The question (`Message=`), as written; show ``displayMessage``.
  public var message: String
  /// The XDG icon name (`Icon=`), or nil.
  public var icon: String?
  /// What is asked for (`Id=`), or nil.
  public var id: String?
  /// The asking process (`PID=`), or nil when absent or 0.
  public var processID: Int32?
  /// The deadline in microseconds of `CLOCK_MONOTONIC` (`NotAfter=`); 0 for
  /// none.
  public var notAfter: UInt64
  /// A cached passphrase may answer (`AcceptCached=`).
  public var acceptsCached: Bool
  /// The typing may be shown (`Echo=`).
  public var echoes: Bool
  /// Nothing of the typing is shown, not even its length (`Silent=`).
  public var isSilent: Bool

  /// The most bytes a request file may hold.
  public static let maximumFileSize = 32 * 1024

  /// A request for `socketPath` with nothing else set.
  public init(socketPath: String) {
    self.socketPath = socketPath
    message = ""
    icon = nil
    id = nil
    processID = nil
    notAfter = 0
    acceptsCached = false
    echoes = false
    isSilent = false
  }

  /// Parses the bytes of a request file.
  ///
  /// Lines end at LF (a CR before it is dropped); blanks around keys, values
  /// and section names are trimmed; `#` and `;` start comments; a later key
  /// replaces an earlier one. Booleans take `1 yes true on` and `0 no false
  /// off` (any case), as systemd's parser does.
  ///
  /// - Complexity: O(n) in the bytes; at most ``maximumFileSize`` are read.
  /// - Throws: ``PasswordRequestError`` for anything that is not such a file
  ///   with a `Socket=` in `[Ask]`.
  public init(parsing bytes: some Collection<UInt8>) throws(PasswordRequestError) {
    guard bytes.count <= Self.maximumFileSize else { throw PasswordRequestError(.tooLarge) }
    guard !bytes.contains(0) else { throw PasswordRequestError(.containsNul) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw PasswordRequestError(.notUTF8)
    }
    self.init(socketPath: "")
    var section: Substring?
    var sawAsk = false
    var lineNumber = 0
    // By scalars, as systemd reads bytes: a String's Character "\r\n" is not
    // "\n", and a blank, `=` or `]` followed by a combining mark is one
    // Character that is none of them (` \u{301}` went untrimmed into Socket=).
    for scalars in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let withoutReturn = scalars.last == "\r" ? scalars.dropLast() : scalars
      let line = Self.trimmed(withoutReturn)
      if line.isEmpty || line.first == "#" || line.first == ";" { continue }
      if line.first == "[" {
        guard line.last == "]", line.count >= 2 else {
          throw PasswordRequestError(.malformedLine, line: lineNumber)
        }
        section = Substring(Self.trimmed(line.dropFirst().dropLast()))
        if section == "Ask" { sawAsk = true }
        continue
      }
      guard let equals = line.firstIndex(of: "=") else {
        throw PasswordRequestError(.malformedLine, line: lineNumber)
      }
      guard section == "Ask" else { continue }
      let key = Substring(Self.trimmed(line[..<equals]))
      let value = Substring(Self.trimmed(line[line.index(after: equals)...]))
      try assign(String(value), to: key, line: lineNumber)
    }
    guard sawAsk else { throw PasswordRequestError(.noAskSection) }
    guard !socketPath.isEmpty else { throw PasswordRequestError(.missingSocket) }
  }

  /// Parses a request from bytes lent for the call (a fuzzer's input).
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(PasswordRequestError) -> Self {
    try Self(parsing: bytes)
  }

  private mutating func assign(
    _ value: String, to key: Substring, line: Int
  ) throws(PasswordRequestError) {
    func invalid() -> PasswordRequestError {
      PasswordRequestError(.invalidValue, line: line, key: String(key))
    }
    func flag() throws(PasswordRequestError) -> Bool {
      guard let flag = Self.boolean(value) else { throw invalid() }
      return flag
    }
    switch key {
    case "Socket": socketPath = value
    case "Message": message = value
    case "Icon": icon = value.isEmpty ? nil : value
    case "Id": id = value.isEmpty ? nil : value
    case "PID":
      guard let number = Self.decimal(value), number <= UInt64(Int32.max) else { throw invalid() }
      processID = number == 0 ? nil : Int32(number)
    case "NotAfter":
      guard let number = Self.decimal(value) else { throw invalid() }
      notAfter = number
    case "AcceptCached": acceptsCached = try flag()
    case "Echo": echoes = try flag()
    case "Silent": isSilent = try flag()
    default:
      break
    }
  }

  /// Digits only, no sign, no overflow.
  private static func decimal(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return UInt64(text)
  }

  private static func boolean(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "1", "yes", "y", "true", "t", "on": true
    case "0", "no", "n", "false", "f", "off": false
    default: nil
    }
  }

  /// `text` without the blanks (space, tab) at its ends, scalar by scalar.
  private static func trimmed(_ text: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
    var text = text
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}

extension PasswordRequest {
  /// ``message`` safe to show: every control character (C0, DEL, C1), line
  /// and paragraph separators and bidirectional overrides written as escapes
  /// (`\e`, `\n`, `\x07`, `\u{202E}`), so no byte of it acts on the terminal.
  public var displayMessage: String { Self.escaped(message) }

  /// `text` with what would act on a terminal written as escapes; a
  /// backslash is doubled, so an escape cannot be faked.
  public static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x5C: result += "\\\\"
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      case 0x1B: result += "\\e"
      case 0..<0x20, 0x7F:
        result += "\\x" + Self.hex(value, digits: 2)
      case 0x80..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069,
        0x061C:
        result += "\\u{" + Self.hex(value, digits: 4) + "}"
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

extension PasswordRequest {
  /// Microseconds left until ``notAfter`` at `now` (microseconds of
  /// `CLOCK_MONOTONIC`), nil when there is no deadline, 0 once it passed.
  public func remainingMicroseconds(at now: UInt64) -> UInt64? {
    guard notAfter != 0 else { return nil }
    return notAfter > now ? notAfter - now : 0
  }

  /// `CLOCK_MONOTONIC` now, in microseconds: the clock of ``notAfter``.
  public static func monotonicNow() -> UInt64 { AgentSystem.monotonicMicroseconds() }

  /// The instant of `ContinuousClock` when ``notAfter`` passes, for a
  /// prompt's deadline; nil when there is none.
  public func deadline(at now: UInt64) -> ContinuousClock.Instant? {
    remainingMicroseconds(at: now).map { ContinuousClock.now + .microseconds($0) }
  }

  /// True when ``notAfter`` is set and `now` is past it.
  public func hasExpired(at now: UInt64) -> Bool {
    notAfter != 0 && now > notAfter
  }
}
