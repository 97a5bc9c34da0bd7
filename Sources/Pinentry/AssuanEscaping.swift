package import SecureMemory

/// The escapings of the Assuan protocol, for text and for secrets.
///
/// The secret forms read their input inside a `SecureBuffer` window and append
/// to another `SecureBuffer`: runs of bytes that pass unchanged are copied with
/// `SecureBuffer.append(_:)` (SecureMemory's `rep movsb`, no vector register),
/// and an escape is born in the destination through
/// `append(count:initializingWith:)`. Nothing of the secret is held in an
/// ordinary Swift value; the few bytes the classifying loop had in registers are
/// wiped from the stack with `wipeStack()` before returning.
package enum AssuanEscaping {
  /// Decodes `%XX` escapes in text that is not secret (a description, a prompt).
  ///
  /// `%` followed by two hexadecimal digits, in either case, becomes that byte;
  /// any other `%` stays as it is. `+` stays a `+`: in Assuan text arguments it
  /// is not a space.
  ///
  /// - Complexity: O(`bytes.count`).
  package static func percentDecoded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index != bytes.endIndex {
      if let byte = decodedEscape(in: bytes, at: index) {
        decoded.append(byte)
        index = bytes.index(index, offsetBy: 3)
      } else {
        decoded.append(bytes[index])
        index = bytes.index(after: index)
      }
    }
    return decoded
  }

  /// Appends `data` to `buffer` as Assuan `D` lines: `D `, the data with `%`,
  /// CR and LF escaped as `%25`, `%0D` and `%0A`, and LF.
  ///
  /// Long data is split over as many lines as it needs, each at most
  /// `maximumLineLength` bytes with its LF; an escape is never split. Empty data
  /// appends nothing (a client reads no `D` line as empty data).
  ///
  /// - Parameters:
  ///   - data: the bytes to send, from inside a read window of their buffer.
  ///   - buffer: where the lines go.
  ///   - maximumLineLength: the longest line, LF included; at least 6.
  /// - Complexity: O(`data.count`), plus one `append` (two `mprotect` calls) per
  ///   run of unescaped bytes, per escape and per line.
  /// - Throws: `SecureMemoryError` when `buffer` cannot grow; it may then hold
  ///   part of the lines, so wipe it.
  package static func appendDataLines(
    _ data: UnsafeRawBufferPointer, to buffer: inout SecureBuffer,
    maximumLineLength: Int = AssuanLine.maximumLength
  ) throws(SecureMemoryError) {
    precondition(maximumLineLength >= 6, "AssuanEscaping: a D line needs room for one escape")
    defer { wipeStack() }
    guard !data.isEmpty else { return }
    // "D " before the data and LF after it.
    let room = maximumLineLength - 3
    try buffer.reserveCapacity(buffer.count + data.count * 3 + (data.count / room + 1) * 3)
    try appendConstant("D ", to: &buffer)
    var used = 0
    var runStart = 0
    for index in 0..<data.count {
      let escape = dataEscape(for: data[index])
      let width = escape == nil ? 1 : 3
      if used + width > room {
        try buffer.append(UnsafeRawBufferPointer(rebasing: data[runStart..<index]))
        try appendConstant("\nD ", to: &buffer)
        used = 0
        runStart = index
      }
      if let escape {
        try buffer.append(UnsafeRawBufferPointer(rebasing: data[runStart..<index]))
        try appendConstant(escape, to: &buffer)
        runStart = index + 1
      }
      used += width
    }
    try buffer.append(UnsafeRawBufferPointer(rebasing: data[runStart...]))
    try appendConstant("\n", to: &buffer)
  }

  /// Appends `bytes` to `buffer` plus-escaped, as pinentry's quality inquiry
  /// sends a passphrase: a space becomes `+`; `+`, `%`, control characters and
  /// DEL become `%XX` (upper-case hex); every other byte, UTF-8 included, stays.
  ///
  /// pinentry itself leaves `%` unescaped, which gpg-agent then decodes as the
  /// start of an escape; escaping it is what the agent's decoder expects.
  ///
  /// - Complexity: O(`bytes.count`), plus one `append` per run and per escape.
  /// - Throws: `SecureMemoryError` when `buffer` cannot grow.
  package static func appendPlusEscaped(
    _ bytes: UnsafeRawBufferPointer, to buffer: inout SecureBuffer
  ) throws(SecureMemoryError) {
    defer { wipeStack() }
    try buffer.reserveCapacity(buffer.count + bytes.count * 3)
    var runStart = 0
    for index in 0..<bytes.count {
      let byte = bytes[index]
      let isSpace = byte == UInt8(ascii: " ")
      guard isSpace || needsPlusEscape(byte) else { continue }
      try buffer.append(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
      if isSpace {
        try appendConstant("+", to: &buffer)
      } else {
        try appendHexEscape(of: byte, to: &buffer)
      }
      runStart = index + 1
    }
    try buffer.append(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
  }

  /// Appends the percent-decoded form of `escaped` to `buffer`: `%XX` becomes
  /// the byte, everything else is copied. For the data of `D` lines, which may
  /// be secret.
  ///
  /// - Complexity: O(`escaped.count`), plus one `append` per run and per escape.
  /// - Throws: `SecureMemoryError` when `buffer` cannot grow.
  package static func appendPercentDecoded(
    _ escaped: UnsafeRawBufferPointer, to buffer: inout SecureBuffer
  ) throws(SecureMemoryError) {
    defer { wipeStack() }
    try buffer.reserveCapacity(buffer.count + escaped.count)
    var runStart = 0
    var index = 0
    while index < escaped.count {
      guard let decoded = decodedEscape(in: escaped, at: index) else {
        index += 1
        continue
      }
      try buffer.append(UnsafeRawBufferPointer(rebasing: escaped[runStart..<index]))
      try appendByte(decoded, to: &buffer)
      index += 3
      runStart = index
    }
    try buffer.append(UnsafeRawBufferPointer(rebasing: escaped[runStart...]))
  }

  // MARK: - Pieces

  /// The escape a `D` line needs for `byte`, or nil when it goes as it is.
  static func dataEscape(for byte: UInt8) -> StaticString? {
    switch byte {
    case UInt8(ascii: "%"): "%25"
    case UInt8(ascii: "\r"): "%0D"
    case UInt8(ascii: "\n"): "%0A"
    default: nil
    }
  }

  static func needsPlusEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "%")
  }

  /// The byte a `%XX` at `index` stands for, or nil when there is no valid
  /// escape there.
  static func decodedEscape<Bytes: Collection<UInt8>>(
    in bytes: Bytes, at index: Bytes.Index
  ) -> UInt8? {
    guard bytes[index] == UInt8(ascii: "%") else { return nil }
    let high = bytes.index(after: index)
    guard high != bytes.endIndex else { return nil }
    let low = bytes.index(after: high)
    guard low != bytes.endIndex,
      let highValue = hexValue(bytes[high]), let lowValue = hexValue(bytes[low])
    else { return nil }
    return highValue << 4 | lowValue
  }

  static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }

  static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  /// Appends bytes that carry nothing secret, such as a response line.
  static func append(_ bytes: [UInt8], to buffer: inout SecureBuffer) throws(SecureMemoryError) {
    var failure: SecureMemoryError?
    bytes.withUnsafeBytes { raw in
      do throws(SecureMemoryError) { try buffer.append(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Appends text that carries nothing secret, such as `D ` or `%25`.
  static func appendConstant(
    _ text: StaticString, to buffer: inout SecureBuffer
  ) throws(SecureMemoryError) {
    try buffer.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `%XX` for a byte that may be secret, computed in place.
  static func appendHexEscape(of byte: UInt8, to buffer: inout SecureBuffer)
    throws(SecureMemoryError)
  {
    do {
      try buffer.append(count: 3) { (escape: UnsafeMutableRawBufferPointer) in
        escape[0] = UInt8(ascii: "%")
        escape[1] = hexDigit(byte >> 4)
        escape[2] = hexDigit(byte & 0x0F)
      }
    } catch {
      if case .memory(let failure) = error { throw failure }
    }
  }

  /// Appends one byte that may be secret, written in place.
  static func appendByte(_ byte: UInt8, to buffer: inout SecureBuffer) throws(SecureMemoryError) {
    do {
      try buffer.append(count: 1) { (slot: UnsafeMutableRawBufferPointer) in slot[0] = byte }
    } catch {
      if case .memory(let failure) = error { throw failure }
    }
  }
}
