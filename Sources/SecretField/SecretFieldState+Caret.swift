import SecureMemory

extension SecretFieldState {
  /// Moves the caret, and with it the selection.
  ///
  /// Without `extendingSelection`, a selection collapses: `.left` and `.right`
  /// stop at its start and end, word moves start from its start or end. With it,
  /// the caret moves and the other end of the selection stays. Any move hides the
  /// last-typed character.
  ///
  /// While masked (anything but ``ObfuscationMode/visible``), `.wordLeft` and
  /// `.wordRight` go to the start and the end: word boundaries would show where
  /// the spaces and symbols are.
  ///
  /// - Complexity: O(1), except word moves while visible: O(the characters passed).
  public mutating func moveCaret(_ movement: CaretMovement, extendingSelection: Bool = false) {
    lastTyped = nil
    let current = selection
    let target: Int
    switch movement {
    case .left:
      target = !extendingSelection && !current.isEmpty ? current.lowerBound : max(caret - 1, 0)
    case .right:
      target = !extendingSelection && !current.isEmpty ? current.upperBound : min(caret + 1, count)
    case .start:
      target = 0
    case .end:
      target = count
    case .wordLeft:
      target = wordStart(before: extendingSelection ? caret : current.lowerBound)
    case .wordRight:
      target = wordEnd(after: extendingSelection ? caret : current.upperBound)
    }
    caret = target
    if !extendingSelection { anchor = target }
  }

  /// Selects characters `range`; the caret goes to its end.
  ///
  /// An empty range places the caret. Hides the last-typed character.
  ///
  /// - Precondition: `range` lies within `0...count`.
  public mutating func select(_ range: Range<Int>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= count,
      "SecretFieldState.select: range \(range) out of bounds for \(count) characters")
    lastTyped = nil
    anchor = range.lowerBound
    caret = range.upperBound
  }

  /// Selects everything; the caret goes to the end.
  public mutating func selectAll() {
    select(0..<count)
  }

  /// Where a word move left from `position` ends: back over non-word characters,
  /// then over word characters. The start, while masked.
  func wordStart(before position: Int) -> Int {
    guard isShowingText else { return 0 }
    let result = findWordStart(before: position)
    wipeStack()
    return result
  }

  /// Where a word move right from `position` ends: over non-word characters, then
  /// over word characters. The end, while masked.
  func wordEnd(after position: Int) -> Int {
    guard isShowingText else { return count }
    let result = findWordEnd(after: position)
    wipeStack()
    return result
  }

  @inline(never)
  private func findWordStart(before position: Int) -> Int {
    text.withUnsafeBytes { bytes in
      var target = position
      while target > 0 && !isWordCharacter(target - 1, in: bytes) { target -= 1 }
      while target > 0 && isWordCharacter(target - 1, in: bytes) { target -= 1 }
      return target
    }
  }

  @inline(never)
  private func findWordEnd(after position: Int) -> Int {
    text.withUnsafeBytes { bytes in
      var target = position
      while target < count && !isWordCharacter(target, in: bytes) { target += 1 }
      while target < count && isWordCharacter(target, in: bytes) { target += 1 }
      return target
    }
  }

  /// A character belongs to a word when its first scalar is a letter or a number
  /// (Unicode `Alphabetic`, or any numeric type).
  private func isWordCharacter(_ character: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
    let (scalar, _) = UTF8Scalars.decode(bytes, at: index[character])
    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
  }
}
