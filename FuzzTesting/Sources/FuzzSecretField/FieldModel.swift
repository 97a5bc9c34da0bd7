/// What a field should hold, kept with `String` and `Character` (the standard
/// library's own grapheme breaking): the model of the property tests
/// (Tests/SecretFieldTests/FieldOracle.swift), for the edits this target makes.
struct FieldModel {
  var text = ""
  var anchor = 0
  var caret = 0
  var isVisible = false
  var isCaptured = false
  let maxCharacters: Int
  let maxBytes: Int

  var characters: [Character] { Array(text) }
  var count: Int { text.count }
  var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }
  /// The field masks while captured (`FieldPolicy.maskOnCapture`), so word
  /// boundaries only show while visible and not captured.
  var isShowingText: Bool { isVisible && !isCaptured }

  enum Refusal: Equatable { case invalidUTF8, controlCharacter, tooManyBytes, tooManyCharacters }

  /// Replaces `range` with `bytes`, or says why the field must refuse.
  mutating func edit(_ range: Range<Int>, with bytes: [UInt8]) -> Refusal? {
    // The first problem in the text decides, as the field reads it in order.
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return .controlCharacter }
      case .emptyInput: break decoding
      case .error: return .invalidUTF8
      }
    }
    let inserted = String(decoding: bytes, as: UTF8.self)
    let characters = self.characters
    let prefix = String(characters[..<range.lowerBound])
    let newText = prefix + inserted + String(characters[range.upperBound...])
    if !inserted.isEmpty {
      if newText.utf8.count > maxBytes { return .tooManyBytes }
      if newText.count > maxCharacters { return .tooManyCharacters }
    }
    text = newText
    caret = Self.firstBoundary(in: newText, atOrAfter: prefix.utf8.count + inserted.utf8.count)
    anchor = caret
    return nil
  }

  static func firstBoundary(in text: String, atOrAfter target: Int) -> Int {
    var offset = 0
    var index = 0
    for character in text {
      if offset >= target { return index }
      offset += character.utf8.count
      index += 1
    }
    return index
  }

  mutating func deleteSelection(orElse fallback: Range<Int>) {
    _ = edit(selection.isEmpty ? fallback : selection, with: [])
  }

  static func isWord(_ character: Character) -> Bool {
    let scalar = character.unicodeScalars.first!
    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
  }

  func wordStart(before position: Int) -> Int {
    guard isShowingText else { return 0 }
    let characters = self.characters
    var target = position
    while target > 0 && !Self.isWord(characters[target - 1]) { target -= 1 }
    while target > 0 && Self.isWord(characters[target - 1]) { target -= 1 }
    return target
  }

  func wordEnd(after position: Int) -> Int {
    guard isShowingText else { return count }
    let characters = self.characters
    var target = position
    while target < characters.count && !Self.isWord(characters[target]) { target += 1 }
    while target < characters.count && Self.isWord(characters[target]) { target += 1 }
    return target
  }

  enum Movement { case left, right, start, end, wordLeft, wordRight }

  mutating func move(_ movement: Movement, extending: Bool) {
    let current = selection
    let target: Int
    switch movement {
    case .left: target = !extending && !current.isEmpty ? current.lowerBound : max(caret - 1, 0)
    case .right:
      target = !extending && !current.isEmpty ? current.upperBound : min(caret + 1, count)
    case .start: target = 0
    case .end: target = count
    case .wordLeft: target = wordStart(before: extending ? caret : current.lowerBound)
    case .wordRight: target = wordEnd(after: extending ? caret : current.upperBound)
    }
    caret = target
    if !extending { anchor = target }
  }
}
