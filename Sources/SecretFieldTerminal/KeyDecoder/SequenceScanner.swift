import SecretField
/// Finds what the bytes at the front of the input are: pure, no state, no
/// allocation.
///
/// The scanner reads secret bytes (text, the kitty protocol's code points)
/// only in locals; ``KeyDecoder`` wipes the stack after each call.
enum SequenceScanner {
  static let escape: UInt8 = 0x1B

  /// The token at the front of `bytes`, which must not be empty.
  ///
  /// `maximumSequenceCount` bounds an escape sequence or string: one that has not
  /// ended within that many bytes is taken as unknown at once, and one longer
  /// than that which has ended (it arrived whole in one read) is unknown too,
  /// never a key, text or the start of a paste. So whether a sequence is
  /// over-long depends on its length alone, not on how the reads cut it.
  static func scan(_ bytes: UnsafeRawBufferPointer, maximumSequenceCount: Int) -> InputToken {
    precondition(!bytes.isEmpty, "SequenceScanner: nothing to scan")
    let first = bytes[0]
    let token: InputToken
    if first == escape {
      token = scanEscape(bytes)
    } else if first == c1Lead, bytes.count > 1, (0x80...0x9F).contains(bytes[1]) {
      token = scanC1(bytes)
    } else if first < 0x20 || first == 0x7F {
      return .event(controlKey(first), length: 1)
    } else {
      return scanText(bytes)
    }
    if case .incomplete(.sequence) = token, bytes.count >= maximumSequenceCount {
      if endsInStringsEscape(bytes) {
        // A string too long to keep, cut at an ESC that may not be its
        // terminator: it ends there, and the ESC is scanned anew.
        return .overlong(nil, length: bytes.count - 1)
      }
      // Too long to keep: drop what is here, and swallow the rest to its end.
      return .overlong(swallowState(afterPending: bytes), length: bytes.count)
    }
    if let length = token.sequenceLength, length > maximumSequenceCount {
      // The same sequence, had a read ended inside it past the limit, would
      // have been dropped there and swallowed to this end.
      return .event(.unknownSequence, length: length)
    }
    return token
  }

  /// The lead byte of a C1 control (U+0080–U+009F) in UTF-8.
  static let c1Lead: UInt8 = 0xC2

  /// The event of a C0 control byte or DEL, as readline binds them.
  static func controlKey(_ byte: UInt8) -> KeyEvent {
    switch byte {
    case 0x0D, 0x0A: .submit
    case 0x7F, 0x08: .deleteBackward
    case 0x09: .tab
    case 0x01: .moveToStart
    case 0x02: .moveLeft
    case 0x05: .moveToEnd
    case 0x06: .moveRight
    case 0x15: .deleteToStart
    case 0x0B: .deleteToEnd
    case 0x17: .deleteWordBackward
    case 0x03: .cancel
    case 0x04: .endOfInput
    case 0x0C: .redraw
    case 0x1A: .suspend
    case 0x1B: .escape
    // ^@ and ^\ ^] ^^ ^_ have no letter of their own: named by the key the
    // terminal takes them from (Ctrl+Space, Ctrl+4 to Ctrl+7 on many).
    case 0x00: .key(.character(" "), .control)
    case 0x1C...0x1F: .key(.character(Unicode.Scalar(byte + 0x40)), .control)
    case 0x01...0x1A: .key(.character(Unicode.Scalar(byte + 0x60)), .control)
    default: .unknownSequence
    }
  }

  /// The modifiers of xterm's and the kitty protocol's parameter (the
  /// parameter minus one), lock bits dropped.
  static func modifiers(ofBits bits: Int) -> KeyEvent.Modifiers {
    KeyEvent.Modifiers(rawValue: UInt8(truncatingIfNeeded: bits & 0x0F))
  }

  // MARK: Text

  /// What one UTF-8 character at the front of some bytes is.
  enum Character: Equatable {
    /// Valid, `length` bytes; `isControl` for a C1 control (U+0080–U+009F).
    case valid(length: Int, isControl: Bool)
    /// Not UTF-8: the maximal ill-formed prefix is `length` bytes.
    case invalid(length: Int)
    /// A valid start that the bytes end before completing.
    case incomplete
  }

  /// Decodes the length of the UTF-8 character at `offset`, by the well-formed
  /// byte sequences of Unicode's table 3-7 (no overlongs, no surrogates, nothing
  /// past U+10FFFF).
  static func character(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Character {
    let lead = bytes[offset]
    if lead < 0x80 { return .valid(length: 1, isControl: false) }
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: return .invalid(length: 1)
    }
    for index in 1..<length {
      guard offset + index < bytes.count else { return .incomplete }
      let range: ClosedRange<UInt8> = index == 1 ? secondRange : 0x80...0xBF
      if !range.contains(bytes[offset + index]) { return .invalid(length: index) }
    }
    return .valid(length: length, isControl: lead == 0xC2 && bytes[offset + 1] < 0xA0)
  }

  /// A run of printable text, or what stops one at the front.
  static func scanText(_ bytes: UnsafeRawBufferPointer) -> InputToken {
    var offset = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte < 0x20 || byte == 0x7F { break }
      if byte < 0x80 {
        offset += 1
        continue
      }
      guard case .valid(let length, isControl: false) = character(in: bytes, at: offset) else {
        break
      }
      offset += length
    }
    if offset > 0 { return .text(length: offset) }
    switch character(in: bytes, at: 0) {
    case .valid(let length, _): return .event(.unknownSequence, length: length)  // a C1 control
    case .incomplete: return .incomplete(.character)
    case .invalid(var length):
      // One event for a run of bad bytes: one bell, not one per byte.
      while length < bytes.count, case .invalid(let more) = character(in: bytes, at: length) {
        length += more
      }
      return .event(.invalidText, length: length)
    }
  }

  // MARK: Escape sequences

  /// An escape sequence, a string, or a key with Alt; `altHeld` when an Esc
  /// came before it as Alt's prefix (`ESC ESC [ A` is Alt+Up).
  static func scanEscape(_ bytes: UnsafeRawBufferPointer, altHeld: Bool = false) -> InputToken {
    guard bytes.count > 1 else { return .incomplete(.escape) }
    switch bytes[1] {
    case UInt8(ascii: "["): return scanControlSequence(bytes, altHeld: altHeld)
    case UInt8(ascii: "O"): return scanSingleShift(bytes, altHeld: altHeld)
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"),
      UInt8(ascii: "X"):
      return scanString(bytes)
    case escape:
      // ESC ESC: alone, or before a third ESC, the first is Esc, the key.
      // Before anything else it is Alt, as a terminal that sends Alt as an
      // Esc prefix sends it (Alt+Up, Alt+x, Alt+Alt+x): the key it prefixes
      // with Alt, never a lone Esc that would cancel.
      guard !altHeld, bytes.count > 2 else {
        return altHeld ? .event(.escape, length: 1) : .incomplete(.escape)
      }
      if bytes[2] == escape { return .event(.escape, length: 1) }
      return withAltPrefix(scanEscape(UnsafeRawBufferPointer(rebasing: bytes[1...]), altHeld: true))
    case 0x20...0x2F:
      // ESC I...I F (ECMA-35's nF sequences, as `ESC ( B`): the intermediates
      // and the final byte belong to it.
      var offset = 2
      while offset < bytes.count, (0x20...0x2F).contains(bytes[offset]) { offset += 1 }
      guard offset < bytes.count else { return .incomplete(.sequence) }
      let ends = (0x30...0x7E).contains(bytes[offset])
      return .event(.unknownSequence, length: ends ? offset + 1 : offset)
    default:
      // Alt+key: ESC and one character, a whole UTF-8 one if it is text.
      if bytes[1] >= 0x80 {
        switch character(in: bytes, at: 1) {
        case .valid(let length, _): return .event(.unknownSequence, length: 1 + length)
        case .invalid(let length): return .event(.unknownSequence, length: 1 + length)
        case .incomplete: return .incomplete(.sequence)
        }
      }
      // Alt+key on a terminal that sends Alt as an Esc prefix.
      if (0x20...0x7E).contains(bytes[1]) {
        let scalar = Unicode.Scalar(bytes[1])
        let isUpper = (0x41...0x5A).contains(bytes[1])
        let key = KeyEvent.Key.character(isUpper ? Unicode.Scalar(bytes[1] + 0x20) : scalar)
        return .event(.key(key, isUpper ? [.alt, .shift] : .alt), length: 2)
      }
      // Alt+Backspace: a word back, as readline and the kitty protocol take it.
      if bytes[1] == 0x7F { return .event(.deleteWordBackward, length: 2) }
      return .event(.unknownSequence, length: 2)
    }
  }

  /// The token of an Esc and, after it, `token` (scanned with Alt held): the
  /// same key one byte longer. Before a terminal's reply or a paste, which no
  /// key prefixes, the Esc is Esc, the key.
  static func withAltPrefix(_ token: InputToken) -> InputToken {
    switch token {
    case .event(.focusIn, _), .event(.focusOut, _), .event(.keyboardFlags, _),
      .event(.deviceAttributes, _), .pasteStart:
      return .event(.escape, length: 1)
    case .event(let event, let length): return .event(event, length: length + 1)
    case .legacyKey(let event, let modifiers, let isRelease, let length):
      return .legacyKey(event, modifiers: modifiers, isRelease: isRelease, length: length + 1)
    case .kittyKey(let key, let length): return .kittyKey(key, length: length + 1)
    case .incomplete: return .incomplete(.sequence)
    case .text, .overlong: preconditionFailure("SequenceScanner: an escape is never text")
    }
  }

  /// A modifier parameter (xterm's, the kitty protocol's) with Alt added.
  static func addingAlt(to modifiers: Int?, _ altHeld: Bool) -> Int? {
    guard altHeld else { return modifiers }
    return (max(0, (modifiers ?? 1) - 1) | ModifierBits.alt) + 1
  }

  /// The layout of a control sequence: parameters, intermediates and the final
  /// byte, by ECMA-48's byte classes.
  struct Layout {
    var parameters: Range<Int>
    var final: UInt8
    var hasIntermediates: Bool
    var length: Int
  }

  enum LayoutResult {
    case complete(Layout)
    case incomplete
    /// A byte outside the classes ended it early; consume up to it.
    case malformed(length: Int)
  }

  /// Finds parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F) and the
  /// final byte (0x40–0x7E) from `start`.
  ///
  /// A parameter byte after an intermediate (`CSI - 1 u`) breaks ECMA-48's
  /// order, but the sequence still runs to its final byte, as DEC's parser
  /// ignores such a sequence to its end: it counts as having intermediates,
  /// so it is never a key.
  static func layout(_ bytes: UnsafeRawBufferPointer, from start: Int) -> LayoutResult {
    var offset = start
    while offset < bytes.count, (0x30...0x3F).contains(bytes[offset]) { offset += 1 }
    let parameters = start..<offset
    while offset < bytes.count, (0x20...0x3F).contains(bytes[offset]) { offset += 1 }
    let hasIntermediates = offset > parameters.upperBound
    guard offset < bytes.count else { return .incomplete }
    let final = bytes[offset]
    guard (0x40...0x7E).contains(final) else { return .malformed(length: offset) }
    return .complete(
      Layout(
        parameters: parameters, final: final, hasIntermediates: hasIntermediates,
        length: offset + 1))
  }

  static func scanControlSequence(_ bytes: UnsafeRawBufferPointer, altHeld: Bool = false)
    -> InputToken
  {
    scanLayout(bytes) { layout in controlSequence(bytes, layout, altHeld: altHeld) }
  }

  /// The sequence whose parameters start at byte 2 (after `ESC [` or
  /// `ESC O`), read by `read` once its final byte has come: unfinished, it
  /// waits for more; broken by a byte outside ECMA-48's classes, it is an
  /// unknown sequence up to that byte.
  private static func scanLayout(
    _ bytes: UnsafeRawBufferPointer, _ read: (Layout) -> InputToken
  ) -> InputToken {
    switch layout(bytes, from: 2) {
    case .incomplete: .incomplete(.sequence)
    case .malformed(let length): .event(.unknownSequence, length: length)
    case .complete(let layout): read(layout)
    }
  }

  /// SS3 (`ESC O`): arrows, Home and End in application cursor mode, keypad Enter.
  static func scanSingleShift(_ bytes: UnsafeRawBufferPointer, altHeld: Bool = false)
    -> InputToken
  {
    scanLayout(bytes) { layout in
      let parameters = Parameters(bytes, layout.parameters)
      guard !layout.hasIntermediates, !parameters.hasPrivateMarker, parameters.isWellFormed else {
        return .event(.unknownSequence, length: layout.length)
      }
      // Some terminals put the modifier straight after SS3 (`ESC O 5 D`).
      let modifiers = addingAlt(
        to: parameters.count > 1 ? parameters.value(1) : parameters.value(0), altHeld)
      if layout.final == UInt8(ascii: "M") {
        // Keypad Enter; with Alt, as Alt+Enter (`ESC CR`), nothing.
        return .event(altHeld ? .unknownSequence : .submit, length: layout.length)
      }
      let event = cursorKey(layout.final, modifiers: modifiers)
      return .legacyKey(event, modifiers: modifiers, isRelease: false, length: layout.length)
    }
  }

  /// OSC, DCS, APC, PM, SOS: consumed up to ST (`ESC \`, or U+009C in
  /// UTF-8) or BEL; or up to, and without, another ESC or a C0 control, which
  /// ends the string (ECMA-48 lets a control abort it) and is then a key of
  /// its own: a string from the keyboard (Alt+] on a terminal that sends Alt
  /// as an Esc prefix) never swallows Enter, Esc or ^C. A last ESC may be the
  /// start of ST: incomplete, until more comes or the wait ends.
  static func scanString(_ bytes: UnsafeRawBufferPointer) -> InputToken {
    switch swallow(bytes, from: 2, .string(afterC1Lead: false)) {
    case (let length, nil) where length == bytes.count - 1 && bytes[length] == escape:
      .incomplete(.sequence)
    case (let length, nil): .event(.unknownSequence, length: length)
    case (_, .some): .incomplete(.sequence)
    }
  }

  /// Whether `bytes`, an unfinished sequence, is a string whose last byte is
  /// an ESC: the string ends before it if no `\` follows.
  static func endsInStringsEscape(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count > 2, bytes[bytes.count - 1] == escape else { return false }
    // Only a string runs on to an ESC unfinished: a control sequence ends
    // before one (malformed), and so does ESC with intermediates.
    return true
  }

  /// A C1 control sent as UTF-8 (`C2 9B` for CSI): the same sequence as its
  /// 7-bit form (`ESC [`), consumed whole, and never a key: the prompt asks
  /// for no 8-bit controls, so one is not from a key.
  static func scanC1(_ bytes: UnsafeRawBufferPointer) -> InputToken {
    switch bytes[1] {
    case 0x9B, 0x8F, 0x8E:
      // CSI; SS3 and SS2, whose parameters and final byte scan as SS3's do.
      switch layout(bytes, from: 2) {
      case .incomplete: return .incomplete(.sequence)
      case .malformed(let length): return .event(.unknownSequence, length: length)
      case .complete(let layout): return .event(.unknownSequence, length: layout.length)
      }
    case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
      // DCS, SOS, OSC, PM, APC.
      return scanString(bytes)
    default:
      return .event(.unknownSequence, length: 2)
    }
  }

  // MARK: Swallowing what is too long to keep

  /// Where the scanner is inside a sequence whose bytes are no longer kept: a
  /// few flags, however long the sequence runs.
  enum Swallow: Equatable {
    /// Inside a CSI or SS3: parameter and intermediate bytes until the final.
    case controlSequence
    /// After `ESC` and intermediates: more of them until the final.
    case escapeIntermediates
    /// Inside a control string; the last byte was C2 (the start of an ST in
    /// UTF-8). An ESC, the start of the other ST, is never swallowed alone:
    /// the string ends before it when it is not followed by `\\`.
    case string(afterC1Lead: Bool)
  }

  /// Consumes the bytes from `start` that belong to a sequence in `state`.
  ///
  /// - Returns: how many bytes from the front belong to it, and the state
  ///   after them: nil when the sequence ended (its final byte or terminator
  ///   counted; a byte that cannot belong to it is not counted and starts
  ///   anew).
  static func swallow(
    _ bytes: UnsafeRawBufferPointer, from start: Int, _ state: Swallow
  ) -> (length: Int, state: Swallow?) {
    var offset = start
    switch state {
    case .controlSequence, .escapeIntermediates:
      let continuing: ClosedRange<UInt8> = state == .controlSequence ? 0x20...0x3F : 0x20...0x2F
      while offset < bytes.count {
        let byte = bytes[offset]
        if continuing.contains(byte) {
          offset += 1
          continue
        }
        let ends = ((continuing.upperBound + 1)...0x7E).contains(byte)
        return (ends ? offset + 1 : offset, nil)
      }
      return (offset, state)
    case .string(var afterC1Lead):
      while offset < bytes.count {
        let byte = bytes[offset]
        if afterC1Lead && byte == 0x9C { return (offset + 1, nil) }
        if byte == 0x07 { return (offset + 1, nil) }  // BEL, as xterm's replies end
        if byte == escape {
          let isTerminator = offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "\\")
          return (isTerminator ? offset + 2 : offset, nil)
        }
        // Any other C0 control aborts the string and is a key: Enter, ^C, ^D.
        if byte < 0x20 { return (offset, nil) }
        afterC1Lead = byte == c1Lead
        offset += 1
      }
      return (offset, .string(afterC1Lead: afterC1Lead))
    }
  }

  /// The state to swallow in after dropping `bytes`, an unfinished sequence
  /// (too long, or timed out): nil when there is nothing left to swallow (an
  /// Alt+key whose character was cut short).
  static func swallowState(afterPending bytes: UnsafeRawBufferPointer) -> Swallow? {
    guard bytes.count > 1 else { return nil }
    if bytes.count > 2, bytes[0] == escape, bytes[1] == escape {
      // Alt's Esc before a sequence: the sequence's state.
      return swallowState(afterPending: UnsafeRawBufferPointer(rebasing: bytes[1...]))
    }
    let introducer: UInt8
    if bytes[0] == escape {
      introducer = bytes[1]
    } else if bytes[0] == c1Lead, (0x80...0x9F).contains(bytes[1]) {
      introducer = bytes[1] - 0x40
    } else {
      return nil
    }
    let state: Swallow
    switch introducer {
    case UInt8(ascii: "["), UInt8(ascii: "O"), UInt8(ascii: "N"): state = .controlSequence
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"),
      UInt8(ascii: "X"):
      state = .string(afterC1Lead: false)
    case 0x20...0x2F: return swallow(bytes, from: 1, .escapeIntermediates).state
    default: return nil
    }
    return swallow(bytes, from: 2, state).state
  }

  /// The event of a cursor key's final byte (`D`, `C`, `H`, `F`): Ctrl or Alt
  /// make Left and Right move by word. Up (`A`) and Down (`B`), F1 to F4
  /// (`P` to `S`) and Shift-Tab (`Z`) are named keys.
  static func cursorKey(_ final: UInt8, modifiers: Int?) -> KeyEvent {
    let bits = max(0, (modifiers ?? 1) - 1) & ~ModifierBits.locks
    let byWord = bits & (ModifierBits.control | ModifierBits.alt) != 0
    let held = Self.modifiers(ofBits: bits)
    switch final {
    case UInt8(ascii: "D"): return byWord ? .moveWordLeft : .moveLeft
    case UInt8(ascii: "C"): return byWord ? .moveWordRight : .moveRight
    case UInt8(ascii: "H"): return .moveToStart
    case UInt8(ascii: "F"): return .moveToEnd
    case UInt8(ascii: "A"): return .key(.up, held)
    case UInt8(ascii: "B"): return .key(.down, held)
    case UInt8(ascii: "P")...UInt8(ascii: "S"): return .key(.function(Int(final) - 0x4F), held)
    case UInt8(ascii: "Z"): return .key(.tab, held.union(.shift))
    default: return .unknownSequence
    }
  }

  /// The event of `CSI number ~` with the modifier parameter `modifiers`:
  /// Delete, Home and End as edits, the rest (Insert, Page Up, Page Down, F1
  /// to F12 as xterm and the VT220 number them) as named keys.
  static func tildeKey(_ number: Int?, modifiers: Int?) -> KeyEvent {
    let held = Self.modifiers(ofBits: max(0, (modifiers ?? 1) - 1) & ~ModifierBits.locks)
    guard let number else { return .unknownSequence }
    switch number {
    case 3: return held.subtracting(.shift).isEmpty ? .deleteForward : .key(.delete, held)
    case 1, 7: return .moveToStart
    case 4, 8: return .moveToEnd
    case 2: return .key(.insert, held)
    case 5: return .key(.pageUp, held)
    case 6: return .key(.pageDown, held)
    case 11...15: return .key(.function(number - 10), held)
    case 17...21: return .key(.function(number - 11), held)
    case 23...26: return .key(.function(number - 12), held)
    case 28, 29: return .key(.function(number - 13), held)
    case 31...34: return .key(.function(number - 14), held)
    default: return .unknownSequence
    }
  }

  static func controlSequence(
    _ bytes: UnsafeRawBufferPointer, _ layout: Layout, altHeld: Bool = false
  ) -> InputToken {
    let length = layout.length
    let parameters = Parameters(bytes, layout.parameters)
    // A key whose parameters do not parse is dropped, not guessed.
    guard !layout.hasIntermediates, parameters.isWellFormed else {
      return .event(.unknownSequence, length: length)
    }
    let final = layout.final
    let marker = parameters.privateMarker
    switch (marker, final) {
    case (nil, UInt8(ascii: "I")) where parameters.isEmpty:
      return .event(.focusIn, length: length)
    case (nil, UInt8(ascii: "O")) where parameters.isEmpty:
      return .event(.focusOut, length: length)
    case (UInt8(ascii: "?"), UInt8(ascii: "u")):
      return .event(
        .keyboardFlags(KeyboardFlags(rawValue: parameters.value(0) ?? 0)), length: length)
    case (UInt8(ascii: "?"), UInt8(ascii: "c")):
      return .event(.deviceAttributes, length: length)
    case (nil, UInt8(ascii: "u")):
      guard var key = parameters.kittyKey() else {
        return .event(.unknownSequence, length: length)
      }
      key.modifiers = addingAlt(to: key.modifiers, altHeld) ?? key.modifiers
      return .kittyKey(key, length: length)
    case (nil, UInt8(ascii: "~")):
      if parameters.value(0) == 200 { return .pasteStart(length: length) }
      let modifiers = addingAlt(to: parameters.value(1), altHeld)
      let event = tildeKey(parameters.value(0), modifiers: modifiers)
      return .legacyKey(
        event, modifiers: modifiers, isRelease: parameters.secondValue(1) == 3, length: length)
    case (nil, _):
      let modifiers = addingAlt(to: parameters.value(1), altHeld)
      return .legacyKey(
        cursorKey(final, modifiers: modifiers), modifiers: modifiers,
        isRelease: parameters.secondValue(1) == 3, length: length)
    default:
      return .event(.unknownSequence, length: length)
    }
  }
}
