import SecretField
import SecureMemory

/// What a field should hold after each call, kept with `String` and `Character`
/// (the standard library's own grapheme breaking) instead of byte offsets.
struct FieldOracle {
  var text = ""
  var anchor = 0
  var caret = 0
  var mode: ObfuscationMode
  var maskedMode: ObfuscationMode
  var policy: FieldPolicy
  var limits: FieldLimits
  var isCaptured = false
  var isFocused = true
  var lastTyped: (index: Int, until: ContinuousClock.Instant)?

  init(policy: FieldPolicy, limits: FieldLimits, mode: ObfuscationMode) {
    self.policy = policy
    self.limits = limits
    self.mode = mode
    self.maskedMode = mode.isMasked ? mode : .hidden
  }

  var characters: [Character] { Array(text) }
  var count: Int { text.count }
  var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }
  var isMaskedForCapture: Bool { isCaptured && policy.contains(.maskOnCapture) }
  var isShowingText: Bool { mode == .visible && !isMaskedForCapture }

  enum Kind { case typed(ContinuousClock.Instant?), pasted, deletion }

  /// Returns the error code the field must throw, or nil after applying the edit.
  mutating func edit(_ range: Range<Int>, with inserted: String, kind: Kind) -> FieldError.Code? {
    let characters = self.characters
    let prefix = String(characters[..<range.lowerBound])
    let newText = prefix + inserted + String(characters[range.upperBound...])
    if !inserted.isEmpty {
      if newText.utf8.count > limits.maxBytes { return .tooManyBytes }
      if newText.count > limits.maxCharacters { return .tooManyCharacters }
    }
    text = newText
    caret = Self.firstBoundary(in: newText, atOrAfter: prefix.utf8.count + inserted.utf8.count)
    anchor = caret
    lastTyped = nil
    if case .typed(let now?) = kind, inserted.count == 1, caret > 0,
      case .revealLastTyped(let duration) = mode, isFocused, !isMaskedForCapture
    {
      lastTyped = (caret - 1, now + duration)
    }
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
    _ = edit(selection.isEmpty ? fallback : selection, with: "", kind: .deletion)
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

  mutating func move(_ movement: CaretMovement, extending: Bool) {
    lastTyped = nil
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

  mutating func select(_ range: Range<Int>) {
    lastTyped = nil
    anchor = range.lowerBound
    caret = range.upperBound
  }

  /// Returns false when the mode change must be refused.
  mutating func setMode(_ newMode: ObfuscationMode) -> Bool {
    if newMode == .visible && isMaskedForCapture { return false }
    if newMode.isMasked { maskedMode = newMode }
    mode = newMode
    lastTyped = nil
    return true
  }

  mutating func setCaptured(_ captured: Bool) {
    isCaptured = captured
    if isMaskedForCapture {
      lastTyped = nil
      if mode == .visible { mode = maskedMode }
    }
  }

  mutating func setFocused(_ focused: Bool) {
    isFocused = focused
    if !focused {
      lastTyped = nil
      if policy.contains(.remaskOnFocusLoss) && mode == .visible { mode = maskedMode }
    }
  }

  mutating func clear() {
    text = ""
    anchor = 0
    caret = 0
    lastTyped = nil
  }

  /// The indices of the cells that must show their character at `now`.
  func revealedIndices(at now: ContinuousClock.Instant) -> [Int] {
    if isShowingText { return Array(0..<count) }
    if let lastTyped, !isMaskedForCapture, isFocused, now < lastTyped.until {
      return [lastTyped.index]
    }
    return []
  }
}
