/// The byte offsets of the grapheme-cluster boundaries of the field's text:
/// `self[i]` is where character `i` starts, and the last entry is the byte
/// count. So a caret in characters maps to a byte offset in O(1).
///
/// The offsets are kept in a gap buffer whose gap follows the edits: those
/// before the gap as offsets from the start, those after it as distances from
/// the end. An edit changes the entries at the gap and the byte count alone:
/// every later boundary moves with the end, so its distance from the end stays,
/// and an edit in the middle of a long text shifts nothing (moving the gap to
/// another place costs O(entries passed), once).
///
/// The offsets reveal how long each cluster is in bytes (1 for ASCII, 4 for most
/// emoji, more for a family), not which bytes it holds. That is the price of O(1)
/// caret moves; it lives in ordinary memory.
struct ClusterIndex {
  /// The entries before the gap (`0..<gapStart`, offsets from the start),
  /// the gap, and the entries after it (`gapEnd...`, distances from the end).
  private var storage: [Int] = [0]
  private var gapStart = 1
  private var gapEnd = 1
  /// The byte count of the text: the last entry.
  private(set) var byteCount = 0

  init(reservingCapacity capacity: Int) {
    storage.reserveCapacity(capacity + 1)
  }

  /// How many entries there are: one per character, and the end.
  var count: Int { gapStart + storage.count - gapEnd }

  var characterCount: Int { count - 1 }

  /// Where character `index` starts (the byte count for `characterCount`).
  subscript(index: Int) -> Int {
    index < gapStart ? storage[index] : byteCount - storage[index + gapEnd - gapStart]
  }

  /// The byte range of characters `range`.
  func byteRange(of range: Range<Int>) -> Range<Int> {
    self[range.lowerBound]..<self[range.upperBound]
  }

  /// The index of the first boundary at or after byte `offset`.
  ///
  /// - Complexity: O(log n).
  func firstBoundary(atOrAfter offset: Int) -> Int {
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  mutating func removeAll() {
    storage.removeAll(keepingCapacity: true)
    storage.append(0)
    gapStart = 1
    gapEnd = 1
    byteCount = 0
  }

  /// How to change the offsets for one edit, worked out before anything changes,
  /// so an edit refused for its length leaves everything as it was.
  struct Splice {
    /// Old offsets `0..<keptPrefix` stay as they are.
    var keptPrefix: Int
    /// New offsets (new byte positions) between the kept prefix and the tail:
    /// `middleCount` of them already written at the start of the gap (by
    /// ``planReplacement(of:in:with:)``, which moved the gap to the kept
    /// prefix), then every position in `middleRun`.
    var middleCount: Int
    /// A run of one-byte characters after `middle`, as a range: an append
    /// planned without reading allocates no array for it.
    var middleRun: Range<Int> = 0..<0
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
  /// Mutating, but only in how the offsets are kept: it moves the gap to the
  /// kept prefix and writes the new offsets into it (room that holds no
  /// entry), so a splice that is not applied changes nothing, and one that is
  /// allocates nothing within the reserved capacity.
  ///
  /// - Complexity: O(bytes from the cluster before the edit to the first stable
  ///   boundary after it); O(1) for typing at the end.
  mutating func planReplacement(
    of range: Range<Int>, in text: UnsafeRawBufferPointer,
    with replacement: UnsafeRawBufferPointer
  ) -> Splice {
    let low = self[range.lowerBound]
    let high = self[range.upperBound]
    let delta = replacement.count - (high - low)
    let newByteCount = byteCount + delta
    let keptPrefix = range.lowerBound == 0 ? 0 : range.lowerBound
    let start = range.lowerBound == 0 ? 0 : self[range.lowerBound - 1]

    var recognizer = Unicode._CharacterRecognizer()
    moveGap(to: keptPrefix)
    var middleCount = 0
    /// Writes a new offset into the gap, past those written before it.
    func append(_ offset: Int) {
      if gapEnd - gapStart <= middleCount { grow(toFit: middleCount + 1) }
      storage[gapStart + middleCount] = offset
      middleCount += 1
    }
    // A break at `start` is the kept boundary itself, unless nothing is kept.
    func isNewBoundary(_ position: Int) -> Bool { position > start || keptPrefix == 0 }

    var offset = start
    while offset < low {
      let (scalar, length) = UTF8Scalars.decode(text, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(offset) { append(offset) }
      offset += length
    }
    offset = 0
    while offset < replacement.count {
      let (scalar, length) = UTF8Scalars.decode(replacement, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(low + offset) {
        append(low + offset)
      }
      offset += length
    }
    var oldIndex = range.upperBound
    offset = high
    while offset < text.count {
      let (scalar, length) = UTF8Scalars.decode(text, at: offset)
      if recognizer.hasBreak(before: scalar) && isNewBoundary(offset + delta) {
        while self[oldIndex] < offset { oldIndex += 1 }
        if self[oldIndex] == offset {
          return splice(keptPrefix, middleCount, resumeAt: oldIndex, delta, newByteCount)
        }
        append(offset + delta)
      }
      offset += length
    }
    return splice(keptPrefix, middleCount, resumeAt: count - 1, delta, newByteCount)
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
    let low = self[range.lowerBound]
    if replacementCount > 0 {
      let previousIsOneByte =
        range.lowerBound == 0 || low - self[range.lowerBound - 1] == 1
      guard replacementIsPrintableASCII && previousIsOneByte else { return nil }
    }
    return Splice(
      keptPrefix: range.lowerBound + 1,
      middleCount: 0, middleRun: (low + 1)..<(low + replacementCount + 1),
      resumeAt: count, delta: 0, newByteCount: low + replacementCount,
      newCharacterCount: range.lowerBound + replacementCount)
  }

  private func splice(
    _ keptPrefix: Int, _ middleCount: Int, resumeAt: Int, _ delta: Int, _ newByteCount: Int
  ) -> Splice {
    let characters =
      newByteCount == 0 ? 0 : keptPrefix + middleCount + (count - resumeAt) - 1
    return Splice(
      keptPrefix: keptPrefix, middleCount: middleCount, resumeAt: resumeAt, delta: delta,
      newByteCount: newByteCount, newCharacterCount: characters)
  }

  /// Applies a splice from ``planReplacement(of:in:with:)`` on these same offsets.
  ///
  /// - Complexity: O(1) plus the entries the splice writes, when the gap is
  ///   at the edit (typing on at one place); moving it costs O(entries
  ///   passed). Allocates only past the reserved capacity.
  mutating func apply(_ splice: Splice) {
    if splice.newByteCount == 0 {
      removeAll()
      return
    }
    // A splice with new offsets in the gap was planned with the gap here
    // already; one planned from the index alone moves it now.
    precondition(
      splice.middleCount == 0 || gapStart == splice.keptPrefix,
      "ClusterIndex: a splice applied after the gap moved")
    moveGap(to: splice.keptPrefix)
    // The replaced entries leave the front of what follows the gap; the rest
    // are distances from the end, which the edit moves with them.
    gapEnd += splice.resumeAt - splice.keptPrefix
    byteCount = splice.newByteCount
    gapStart += splice.middleCount
    let added = splice.middleRun.count
    if gapEnd - gapStart < added { grow(toFit: added) }
    storage.withUnsafeMutableBufferPointer { storage in
      for offset in splice.middleRun {
        storage[gapStart] = offset
        gapStart += 1
      }
    }
  }

  /// Moves the gap to start at entry `position`, converting the entries it
  /// passes between offsets from the start and distances from the end.
  private mutating func moveGap(to position: Int) {
    let byteCount = byteCount
    storage.withUnsafeMutableBufferPointer { storage in
      while gapStart > position {
        gapStart -= 1
        gapEnd -= 1
        storage[gapEnd] = byteCount &- storage[gapStart]
      }
      while gapStart < position {
        storage[gapStart] = byteCount &- storage[gapEnd]
        gapStart += 1
        gapEnd += 1
      }
    }
  }

  /// Widens the gap to hold at least `needed` entries, doubling the storage:
  /// within the reserved capacity no allocation, past it an amortised one.
  /// (Appended one by one: `append(contentsOf:)` allocates in a debug build.)
  private mutating func grow(toFit needed: Int) {
    let oldCount = storage.count
    let newCount = max(oldCount * 2, oldCount + needed - (gapEnd - gapStart), 8)
    let tailCount = oldCount - gapEnd
    for _ in oldCount..<newCount { storage.append(0) }
    storage.withUnsafeMutableBufferPointer { storage in
      var index = tailCount
      while index > 0 {
        index -= 1
        storage[newCount - tailCount + index] = storage[gapEnd + index]
      }
    }
    gapEnd = newCount - tailCount
  }
}
