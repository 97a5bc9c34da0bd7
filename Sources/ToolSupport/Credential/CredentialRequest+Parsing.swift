import CSystemShims
package import SecureMemory

extension CredentialRequest {
  /// Reads a request from `descriptor` straight into secure memory, until a
  /// blank line or the end of input, within `timeout`.
  ///
  /// Each `read(2)` lands in the buffer's window (``SecureBuffer/read(from:maximumCount:timeout:)``);
  /// line ends are found with the package's `repne scasb`, so no byte of a
  /// password passes through a register on the way. What follows the blank
  /// line is not read (git sends nothing after it), and what came with it in
  /// the same read is wiped.
  ///
  /// - Throws: ``CredentialError``: `inputTimedOut`, `requestTooLong`,
  ///   `readFailed`, `secureMemoryFailed`; what was read is wiped.
  package static func read(
    from descriptor: Int32, timeout: Duration, storage: SecureStorage
  ) throws(CredentialError) -> SecureBuffer {
    let deadline = ContinuousClock.now + timeout
    var input: SecureBuffer
    do { input = try SecureBuffer(capacity: 4096, storage: storage) } catch {
      throw .secureMemory(error)
    }
    defer { wipeStack(byteCount: 4096) }
    // Where the line being read starts, and how far line ends were looked for.
    var lineStart = 0
    var scanned = 0
    while true {
      let left = deadline - .now
      guard left > .zero else { throw .timedOut(after: seconds(timeout)) }
      let outcome: ReadOutcome
      do {
        outcome = try input.read(from: descriptor, maximumCount: 4096, timeout: left)
      } catch {
        throw CredentialError(
          .readFailed, "could not read the request from standard input: \(error.description)")
      }
      switch outcome {
      case .bytes:
        let end = input.withUnsafeBytes { bytes in
          blankLine(in: bytes, lineStart: &lineStart, scanned: &scanned)
        }
        if let end {
          input.removeSubrange(end..<input.count)
          return input
        }
        if input.count > requestLimit { throw .requestTooLong() }
      case .endOfFile:
        return input
      case .timedOut, .interrupted:
        continue
      }
    }
  }

  /// Where the first blank line (an empty one, or a lone CR) starts, looking
  /// from `scanned` on; nil when none has come yet.
  private static func blankLine(
    in bytes: UnsafeRawBufferPointer, lineStart: inout Int, scanned: inout Int
  ) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    while scanned < bytes.count {
      let newline = scanned + secretfield_find_byte(base + scanned, bytes.count - scanned, 0x0A)
      if newline == bytes.count {
        scanned = bytes.count
        return nil
      }
      let length = newline - lineStart
      if length == 0 || (length == 1 && bytes[lineStart] == 0x0D) { return lineStart }
      lineStart = newline + 1
      scanned = newline + 1
    }
    return nil
  }

  /// Parses a request read by ``read(from:timeout:storage:)``: one
  /// attribute a line, up to a blank line or the end; a CR before a line's
  /// LF is dropped, as git drops it.
  ///
  /// - Parameter storage: the memory the secret values are copied into.
  /// - Throws: ``CredentialError``: `nulByte`, `malformedLine`,
  ///   `valueTooLong`, `duplicateKey`, `invalidValue`, `secureMemoryFailed`;
  ///   the secret values read so far are wiped.
  package init(
    parsing input: borrowing SecureBuffer, storage: SecureStorage
  ) throws(CredentialError) {
    defer { wipeStack(byteCount: 4096) }
    var request = CredentialRequest()
    var parser = Parser(storage: storage)
    try input.withUnsafeBytes { bytes throws(CredentialError) in
      try parser.parse(bytes, into: &request)
    }
    self = request
  }

  /// The state of one parse: which keys were seen, where the line is.
  private struct Parser {
    let storage: SecureStorage
    var seen: Set<String> = []

    mutating func parse(
      _ bytes: UnsafeRawBufferPointer, into request: inout CredentialRequest
    ) throws(CredentialError) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      let nul = secretfield_find_byte(base, bytes.count, 0)
      if nul < bytes.count { throw .nul(line: lineNumber(at: nul, in: bytes)) }
      var start = 0
      var number = 1
      while start < bytes.count {
        let newline = start + secretfield_find_byte(base + start, bytes.count - start, 0x0A)
        var end = newline
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        if end == start { return }
        try parseLine(
          UnsafeRawBufferPointer(rebasing: bytes[start..<end]), number: number, into: &request)
        start = newline + 1
        number += 1
      }
    }

    /// The 1-based number of the line that holds `offset`.
    private func lineNumber(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
      var number = 1
      var position = 0
      while position < offset {
        let newline =
          position + secretfield_find_byte(bytes.baseAddress! + position, offset - position, 0x0A)
        if newline >= offset { break }
        number += 1
        position = newline + 1
      }
      return number
    }

    private mutating func parseLine(
      _ line: UnsafeRawBufferPointer, number: Int, into request: inout CredentialRequest
    ) throws(CredentialError) {
      let equals = secretfield_find_byte(line.baseAddress!, line.count, UInt8(ascii: "="))
      if equals == line.count { throw .malformed(line: number, "it has no =") }
      if equals == 0 { throw .malformed(line: number, "it has nothing before =") }
      // The key is what comes before the first `=`: never secret.
      let key = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<equals]), as: UTF8.self)
      let value = UnsafeRawBufferPointer(rebasing: line[(equals + 1)...])
      if value.count > CredentialRequest.valueLimit {
        throw .valueTooLong(line: number, key: Self.printable(key))
      }
      // An array key may repeat; none is used.
      if key.hasSuffix("[]") { return }
      guard seen.insert(key).inserted else { throw .duplicate(Self.printable(key), line: number) }
      switch key {
      case "protocol": request.protocolName = try text(value, key, number)
      case "host": request.host = try text(value, key, number)
      case "path": request.path = try text(value, key, number)
      case "username": request.username = try text(value, key, number)
      case "password": request.password = try secret(value)
      case "oauth_refresh_token": request.oauthRefreshToken = try secret(value)
      case "password_expiry_utc":
        guard let seconds = Int64(try text(value, key, number)), seconds >= 0 else {
          throw .invalid(key, line: number, "it is not a number of seconds since 1970")
        }
        request.passwordExpiry = seconds
      case "url":
        // A password in the URL must not become a String: looked for first.
        let shape = CredentialTarget.shape(of: value) { byte, bytes in
          bytes.isEmpty ? 0 : secretfield_find_byte(bytes.baseAddress!, bytes.count, byte)
        }
        switch shape {
        case .holdsPassword:
          throw .invalid(
            key, line: number,
            "it holds a password (user:password@); give the password on a password= line")
        case .noProtocol:
          throw .invalid(key, line: number, "it does not start with a protocol, as https://")
        case .plain:
          request.url = try? CredentialTarget(url: try text(value, key, number))
        }
      default:
        break
      }
    }

    /// The value as text: not secret, and valid UTF-8.
    private func text(
      _ value: UnsafeRawBufferPointer, _ key: String, _ number: Int
    ) throws(CredentialError) -> String {
      guard let text = String(validating: value, as: UTF8.self) else {
        throw .invalid(key, line: number, "it is not UTF-8 text")
      }
      return text
    }

    /// The value in a secure buffer of its own, copied with the package's copy.
    private func secret(_ value: UnsafeRawBufferPointer) throws(CredentialError) -> SecureBuffer {
      do {
        var buffer = try SecureBuffer(capacity: max(1, value.count), storage: storage)
        try buffer.append(value)
        return buffer
      } catch {
        throw .secureMemory(error)
      }
    }

    /// A key as a message may show it: printable ASCII, at most 40 bytes.
    static func printable(_ key: String) -> String {
      let shown = key.unicodeScalars.prefix(40).map {
        $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
      }
      return String(shown) + (key.unicodeScalars.count > 40 ? "..." : "")
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return attoseconds == 0 ? "\(seconds)" : "\(Double(seconds) + Double(attoseconds) / 1e18)"
  }
}

extension CredentialError {
  static func secureMemory(_ error: SecureMemoryError) -> Self {
    Self(.secureMemoryFailed, "secure memory could not be had: \(error.description)")
  }
}
