/// The byte offsets of the grapheme-cluster boundaries of the field's text:
/// `offsets[i]` is where character `i` starts, and the last entry is the byte
/// count. So a caret in characters maps to a byte offset in O(1).
///
/// The offsets reveal how long each cluster is in bytes (1 for ASCII, 4 for most
/// emoji, more for a family), not which bytes it holds. That is the price of O(1)
/// caret moves; it lives in ordinary memory.
struct ClusterIndex {
  private(set) var offsets: [Int] = [0]

  init(reservingCapacity capacity: Int) {
    offsets.reserveCapacity(capacity + 1)
  }

  var characterCount: Int { offsets.count - 1 }
  var byteCount: Int { offsets[offsets.count - 1] }

  /// The byte range of characters `range`.
  func byteRange(of range: Range<Int>) -> Range<Int> {
    offsets[range.lowerBound]..<offsets[range.upperBound]
  }

  /// The index of the first boundary at or after byte `offset`.
  ///
  /// - Complexity: O(log n).
  func firstBoundary(atOrAfter offset: Int) -> Int {
    var low = 0
    var high = offsets.count - 1
    while low < high {
      let middle = (low + high) / 2
      if offsets[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  mutating func removeAll() {
    offsets.removeAll(keepingCapacity: true)
    offsets.append(0)
  }

  /// How to change the offsets for one edit, worked out before anything changes,
  /// so an edit refused for its length leaves everything as it was.
  struct Splice {
    /// Old offsets `0..<keptPrefix` stay as they are.
    var keptPrefix: Int
    /// New offsets (new byte positions) between the kept prefix and the tail.
    var middle: [Int]
    /// Old offsets from `resumeAt` on stay, shifted by `delta`.
    var resumeAt: Int
    var delta: Int
    var newByteCount: Int
    var newCharacterCount: Int
  }

  /// Works out the boundaries after replacing the bytes of characters `range` of
  /// `text` with `replacement`.
  ///
  /// Breaking is local: a boundary before the edit depends only on what precedes
  /// it, so the boundaries up to the start of the character before the edit stay.
  /// From there the recognizer runs over the old bytes, the replacement and the
  /// old tail until it reports a break where the old text had a boundary: the
  /// recognizer carries nothing across a break (its documented contract), so
  /// every later boundary is the old one shifted. Typing at the end therefore
  /// scans one cluster and the new bytes, whatever the length of the text.
  ///
  /// Reads secret bytes: call it from an `@inline(never)` worker and wipe the
  /// stack after.
  ///
  /// - Complexity: O(bytes from the cluster before the edit to the first stable
  ///   boundary after it); O(1) for typing at the end.
  func planReplacement(
    of range: Range<Int>, in text: UnsafeRawBufferPointer,
    with replacement: UnsafeRawBufferPointer
  ) -> Splice {
    let low = offsets[range.lowerBound]
    let high = offsets[range.upperBound]
    let delta = replacement.count - (high - low)
    let newByteCount = byteCount + delta
    let keptPrefix = range.lowerBound == 0 ? 0 : range.lowerBound
    let start = range.lowerBound == 0 ? 0 : offsets[range.lowerBound - 1]

    var recognizer = Unicode._CharacterRecognizer()
    var middle: [Int] = []
    // A break at `start` is the kept boundary itself, unless nothing is kept.
    func isNewBoundary(_ position: Int) -> Bool { position > start || keptPrefix == 0 }

    var offset = start
    while offset < low {
      let (scalar, length) = UTF8Scalars.decode(text, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(offset) { middle.append(offset) }
      offset += length
    }
    offset = 0
    while offset < replacement.count {
      let (scalar, length) = UTF8Scalars.decode(replacement, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(low + offset) {
        middle.append(low + offset)
      }
      offset += length
    }
    var oldIndex = range.upperBound
    offset = high
    while offset < text.count {
      let (scalar, length) = UTF8Scalars.decode(text, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(offset + delta) {
        while offsets[oldIndex] < offset { oldIndex += 1 }
        if offsets[oldIndex] == offset {
          return splice(keptPrefix, middle, resumeAt: oldIndex, delta, newByteCount)
        }
        middle.append(offset + delta)
      }
      offset += length
    }
    return splice(keptPrefix, middle, resumeAt: offsets.count - 1, delta, newByteCount)
  }

  /// The boundaries after an edit that ends at the end of the text, when they
  /// follow from the index alone, so the text need not be opened:
  /// - a deletion to the end keeps every boundary before it;
  /// - printable ASCII appended after a one-byte character (ASCII, as control
  ///   characters are refused) breaks before every byte: no grapheme rule joins
  ///   ASCII to ASCII but CR LF.
  ///
  /// Uses only the cluster lengths the index already holds. Returns nil when the
  /// text must be scanned.
  func planAtEndWithoutReading(
    of range: Range<Int>, replacementCount: Int, replacementIsPrintableASCII: Bool
  ) -> Splice? {
    guard range.upperBound == characterCount else { return nil }
    let low = offsets[range.lowerBound]
    if replacementCount > 0 {
      let previousIsOneByte =
        range.lowerBound == 0 || low - offsets[range.lowerBound - 1] == 1
      guard replacementIsPrintableASCII && previousIsOneByte else { return nil }
    }
    return Splice(
      keptPrefix: range.lowerBound + 1,
      middle: Array(stride(from: low + 1, through: low + replacementCount, by: 1)),
      resumeAt: offsets.count, delta: 0, newByteCount: low + replacementCount,
      newCharacterCount: range.lowerBound + replacementCount)
  }

  private func splice(
    _ keptPrefix: Int, _ middle: [Int], resumeAt: Int, _ delta: Int, _ newByteCount: Int
  ) -> Splice {
    let characters =
      newByteCount == 0 ? 0 : keptPrefix + middle.count + (offsets.count - resumeAt) - 1
    return Splice(
      keptPrefix: keptPrefix, middle: middle, resumeAt: resumeAt, delta: delta,
      newByteCount: newByteCount, newCharacterCount: characters)
  }

  /// Applies a splice from ``planReplacement(of:in:with:)`` on these same offsets.
  ///
  /// - Complexity: O(1) at the end of the text, O(boundaries after the edit)
  ///   elsewhere (they shift, as the bytes do).
  mutating func apply(_ splice: Splice) {
    if splice.newByteCount == 0 {
      removeAll()
      return
    }
    offsets.replaceSubrange(splice.keptPrefix..<splice.resumeAt, with: splice.middle)
    if splice.delta != 0 {
      // Through the buffer, with a wrapping add (an offset plus a delta stays
      // within the text's length, so it cannot overflow): no bounds or overflow
      // check per element, so the shift of every later boundary vectorises.
      let start = splice.keptPrefix + splice.middle.count
      let delta = splice.delta
      offsets.withUnsafeMutableBufferPointer { offsets in
        for index in start..<offsets.count { offsets[index] &+= delta }
      }
    }
  }
}
