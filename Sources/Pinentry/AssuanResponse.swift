/// A line, or lines, a pinentry sends to its Assuan client, when nothing in it
/// is secret. A passphrase goes out through
/// ``AssuanConnection/sendData(_:)`` instead, from secure memory.
public enum AssuanResponse: Sendable, Hashable {
  /// `OK`, or `OK <text>`: the request succeeded.
  case ok(String? = nil)
  /// `ERR <code> <text> <Pinentry>`: the request failed.
  case error(AssuanError)
  /// `S <keyword>`, or `S <keyword> <info>`: a status while a request runs.
  case status(String, String? = nil)
  /// `D <data>` lines carrying data that is not secret, such as `GETINFO`'s.
  case data([UInt8])
  /// `# <text>`: a comment the client ignores, as `HELP` lists commands.
  case comment(String)
  /// `INQUIRE <keyword>`, or `INQUIRE <keyword> <arguments>`: the server needs
  /// something from the client, which answers with `D` lines and `END` or `CAN`.
  case inquire(String, String? = nil)

  /// The bytes on the wire, each line ending in LF.
  ///
  /// `D` lines escape `%`, CR and LF and are split to stay within
  /// ``AssuanLine/maximumLength`` bytes each; the other kinds are one line, and
  /// their text must hold no line break.
  ///
  /// - Complexity: O(length of the text or data).
  public var encoded: [UInt8] {
    switch self {
    case .ok(let text): Self.line("OK", text)
    case .error(let error): Self.line("ERR \(error.wireValue)", error.description)
    case .status(let keyword, let info): Self.line("S \(keyword)", info)
    case .comment(let text): Self.line("#", text)
    case .inquire(let keyword, let arguments): Self.line("INQUIRE \(keyword)", arguments)
    case .data(let bytes): Self.dataLines(bytes)
    }
  }

  private static func line(_ head: String, _ tail: String?) -> [UInt8] {
    var text = head
    if let tail, !tail.isEmpty { text += " " + tail }
    precondition(
      !text.utf8.contains(UInt8(ascii: "\n")),
      "AssuanResponse: a response line cannot hold a line feed")
    return Array(text.utf8) + [UInt8(ascii: "\n")]
  }

  private static func dataLines(_ bytes: [UInt8]) -> [UInt8] {
    var lines: [UInt8] = []
    lines.reserveCapacity(bytes.count * 3 + (bytes.count / 997 + 1) * 3)
    var used = 0
    for byte in bytes {
      let escape = AssuanEscaping.dataEscape(for: byte)
      let width = escape == nil ? 1 : 3
      if used == 0 || used + width > AssuanLine.maximumLength - 3 {
        if !lines.isEmpty { lines.append(UInt8(ascii: "\n")) }
        lines += [UInt8(ascii: "D"), UInt8(ascii: " ")]
        used = 0
      }
      if let escape {
        lines += UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount)
      } else {
        lines.append(byte)
      }
      used += width
    }
    if !lines.isEmpty { lines.append(UInt8(ascii: "\n")) }
    return lines
  }
}
