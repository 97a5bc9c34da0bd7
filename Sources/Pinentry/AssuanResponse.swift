/// A line, or lines, a pinentry sends to its Assuan client, when nothing in it
/// is secret. A passphrase goes out through
/// ``AssuanConnection/sendData(_:)`` instead, from secure memory.
package enum AssuanResponse: Sendable, Hashable {
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
  /// ``AssuanLine/maximumLength`` bytes each. The other kinds are one line
  /// whose text may come from outside (an error quoting the client's
  /// `ttyname`), so it is never trusted: `%`, every C0 control and DEL are
  /// percent-escaped (`%0A`), and a line that would pass 1,000 bytes with its
  /// LF is cut before the character or escape that does not fit. The Assuan
  /// documentation allows at most 1,000 bytes a line, LF included, and
  /// libassuan's clients refuse longer ones; libassuan itself cuts a server's
  /// error text (`assuan_process_done`) and a line at its first LF
  /// (`assuan_write_line`). So every response is one valid line, and no input
  /// can make encoding trap.
  ///
  /// - Complexity: O(length of the text or data).
  package var encoded: [UInt8] {
    switch self {
    case .ok(let text): Self.line("OK", text)
    case .error(let error): Self.line("ERR \(error.wireValue)", error.description)
    case .status(let keyword, let info): Self.line("S \(keyword)", info)
    case .comment(let text): Self.line("#", text)
    case .inquire(let keyword, let arguments): Self.line("INQUIRE \(keyword)", arguments)
    case .data(let bytes): Self.dataLines(bytes)
    }
  }

  /// `head`, a space and `tail`, escaped and cut to one line.
  private static func line(_ head: String, _ tail: String?) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(AssuanLine.maximumLength)
    // Room for the LF.
    let room = AssuanLine.maximumLength - 1
    func fits(_ scalar: Unicode.Scalar) -> Bool {
      line.count + (scalar.value < 0x80 && isEscaped(UInt8(scalar.value)) ? 3 : scalar.utf8.count)
        <= room
    }
    func append(_ scalar: Unicode.Scalar) {
      if scalar.value < 0x80, isEscaped(UInt8(scalar.value)) {
        let byte = UInt8(scalar.value)
        line += [
          UInt8(ascii: "%"), AssuanEscaping.hexDigit(byte >> 4),
          AssuanEscaping.hexDigit(byte & 0x0F),
        ]
      } else {
        line += scalar.utf8
      }
    }
    let tail = tail ?? ""
    for scalar in head.unicodeScalars where fits(scalar) { append(scalar) }
    if !tail.isEmpty && line.count < room {
      line.append(UInt8(ascii: " "))
      for scalar in tail.unicodeScalars {
        guard fits(scalar) else { break }
        append(scalar)
      }
    }
    line.append(UInt8(ascii: "\n"))
    return line
  }

  /// True for the bytes a response line's text escapes: `%`, C0 controls, DEL.
  static func isEscaped(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%")
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
