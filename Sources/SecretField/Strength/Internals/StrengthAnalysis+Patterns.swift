import Glibc

extension StrengthAnalysis {
  // MARK: Keyboards

  /// Finds walks over neighbouring keys that start at `start`, on each
  /// layout: zxcvbn-c's `SpatialMatch`, which looks again for shorter walks
  /// as long as the last layout (the PC keypad) found one.
  mutating func matchKeyboards(start: Int) {
    let limit = count - start
    var walkLimit = limit
    while walkLimit >= 3 {
      var lastLength = 0
      for layout in keyboards {
        let (length, turns, shifts) = keyboardWalk(on: layout, start: start, limit: walkLimit)
        if isCut { return }
        lastLength = length
        guard length > 0 else { continue }
        let entropy = Self.keyboardEntropy(
          on: layout, length: length, turns: turns, shifts: shifts)
        recordWithRepeats(
          start: start, length: length, entropy: entropy, kind: .keyboard, reversed: false,
          limit: limit, maximumLength: limit)
      }
      walkLimit = lastLength - 1
    }
  }

  /// The walk over neighbouring keys of `layout` from `start`, at most
  /// `limit` keys: its length (0 under three keys), its turns (its first
  /// direction counts as one) and how many of its keys after the first are
  /// shifted.
  private mutating func keyboardWalk(
    on layout: KeyboardLayout, start: Int, limit: Int
  ) -> (length: Int, turns: Int, shifts: Int) {
    var length = 0
    var turns = 0
    var shifts = 0
    var direction = -1
    var previous: UInt8 = 0
    while length < limit {
      guard spend() else { return (0, 0, 0) }
      guard let (key, shifted) = layout.key(for: scratch.scalars[start + length]) else { break }
      if previous != 0 {
        let next = layout.direction(from: previous, to: key)
        guard next != 0 else { break }
        if next != direction { turns += 1 }
        direction = next
        if shifted { shifts += 1 }
      }
      previous = key
      length += 1
    }
    return length >= 3 ? (length, turns, shifts) : (0, 0, 0)
  }

  /// zxcvbn-c's count of walks on `layout` up to `length` keys with up to
  /// `turns` turns, times the ways to place `shifts` shifted keys, in nats.
  private static func keyboardEntropy(
    on layout: KeyboardLayout, length: Int, turns: Int, shifts: Int
  ) -> Double {
    let degree =
      Double(layout.directions) - Double(layout.blankCount) / Double(layout.keyCount)
    let starts = Double(layout.hasShift ? layout.keyCount * 2 : layout.keyCount)
    var walks = 0.0
    for keys in 2...length {
      let possibleTurns = min(turns, keys - 1)
      guard possibleTurns >= 1 else { continue }
      for turn in 1...possibleTurns {
        walks += choose(keys - 1, turn - 1) * pow(degree, Double(turn)) * starts
      }
    }
    var entropy = walks > 0 ? log(walks) : 0
    if shifts > 0 {
      var ways = 0.0
      for placed in 0...min(shifts, length - shifts) { ways += choose(length, placed) }
      if ways > 0 { entropy += log(ways) }
    }
    return entropy
  }

  // MARK: Sequences

  /// Finds a run of letters or digits that rise or fall by the same step (up
  /// to 5) from `start`, and each shorter run of 3 or more from there:
  /// zxcvbn-c's `SequenceMatch`, where 0 may follow 9 rising or 9 follow 0
  /// falling.
  mutating func matchSequence(start: Int) {
    let limit = count - start
    let first = scratch.scalars[start]
    let second = start + 1 < count ? scratch.scalars[start + 1] : 0
    let low: UInt32
    let high: UInt32
    let isDigits: Bool
    switch first {
    case 0x61...0x7A: (low, high, isDigits) = (0x61, 0x7A, false)
    case 0x41...0x5A: (low, high, isDigits) = (0x41, 0x5A, false)
    case 0x30...0x39: (low, high, isDigits) = (0x30, 0x39, true)
    default: return
    }
    var step = Int(second) - Int(first)
    if first == 0x30 && (0x30...0x39).contains(second) && step > 5 {
      step = Int(second) - 0x3A
    }
    var length = 0
    if step != 0 && abs(step) <= 5 {
      length = 1
      var position = start
      while true {
        guard spend() else { return }
        let current = Int(scratch.scalars[position])
        let following = position + 1 < count ? Int(scratch.scalars[position + 1]) : 0
        let next = current + step
        if isDigits && step > 0 && next == 0x3A && following == 0x30 {
          length += 1
          break
        }
        if isDigits && step < 0 && current == 0x30 && following == 0x3A + step {
          length += 1
          break
        }
        if next > Int(high) || next < Int(low) || following != next { break }
        length += 1
        position += 1
        if length >= limit { break }
      }
    }
    guard length >= 3 else { return }
    var base: Double
    switch first {
    case 0x61, 0x41, 0x7A, 0x5A, 0x30, 0x31, 0x39: base = Self.ln2
    default: base = log(isDigits ? 10 : first <= 0x5A ? 52 : 26)
    }
    if step < 0 { base += Self.ln2 }
    for runLength in (3...length).reversed() {
      recordWithRepeats(
        start: start, length: runLength, entropy: base + log(Double(runLength)),
        kind: .sequence, reversed: false, limit: limit, maximumLength: limit)
      if isCut { return }
    }
  }

  // MARK: Repeats

  /// Finds a character repeated from `start` (each run of 2 or more), and a
  /// block repeated right after itself (`xq7xq7`): zxcvbn-c's `RepeatMatch`.
  mutating func matchRepeats(start: Int) {
    let limit = count - start
    let first = scratch.scalars[start]
    var run = 1
    while run < limit && scratch.scalars[start + run] == first {
      guard spend() else { return }
      run += 1
    }
    if run >= 2 {
      let size = Double(Self.cardinality(ofClasses: Self.characterClass(first)))
      for length in (2...run).reversed() {
        record(
          begin: start, length: length, entropy: log(size * Double(length)),
          kind: .repeatedCharacter, maximumLength: limit)
      }
    }
    var block = limit / 2
    while block >= 2 {
      var repeats = 2
      while limit >= block * repeats {
        let copy = start + block * (repeats - 1)
        var index = 0
        while index < block && scratch.scalars[start + index] == scratch.scalars[copy + index] {
          guard spend() else { return }
          index += 1
        }
        guard index == block else { break }
        var classes: UInt8 = 0
        for offset in 0..<block { classes |= Self.characterClass(scratch.scalars[start + offset]) }
        let entropy =
          log(Double(Self.cardinality(ofClasses: classes))) * Double(block)
          + log(Double(repeats))
        record(
          begin: start, length: block * repeats, entropy: entropy,
          kind: StrengthPartKind.bruteForce.repeated, maximumLength: limit)
        repeats += 1
      }
      block -= 1
    }
  }

  // MARK: Dates

  /// Finds a date or a year from `start`, in zxcvbn-c's formats (d day, m
  /// month, y year, ? a separator: one of `/\-_. `, the same each time),
  /// keeping each format that matches more characters than the one before.
  /// A format cut short by the end of the password still counts, as in
  /// zxcvbn-c.
  mutating func matchDates(start: Int) {
    let limit = count - start
    // Every format starts with a digit of a day or a year.
    let first = scratch.scalars[start]
    guard first >= 0x30 && first <= 0x39 else { return }
    var previousLength = 0
    for format in dateFormats {
      var length = 0
      var year = 0
      var month = 0
      var day = 0
      var yearDigits = 0
      var separator: UInt32 = 0
      var failed = false
      var index = 0
      while index < format.count && !failed {
        guard spend() else { return }
        let scalar = scratch.scalars[start + length]
        let field = format[index]
        if field == 0x3F {
          if separator == 0 && Self.isDateSeparator(scalar) { separator = scalar }
          failed = scalar != separator
        } else if scalar >= 0x30 && scalar <= 0x39 {
          let digit = Int(scalar) - 0x30
          switch field {
          case 0x64: day = 10 * day + digit
          case 0x6D: month = 10 * month + digit
          default:
            year = 10 * year + digit
            yearDigits += 1
          }
        } else {
          failed = true
        }
        length += 1
        index += 1
        if length >= limit { break }
      }
      if length < 4 { failed = true }
      if !failed {
        if (yearDigits > 3 || length <= 4) && (year < 1901 || year > 2050) {
          failed = true
        } else if length > 4 {
          if month > 12 && day < 13 { swap(&month, &day) }
          if month < 1 || month > 12 || day < 1 || day > 31 { failed = true }
        }
      }
      guard !failed && length > previousLength else { continue }
      var entropy =
        length <= 4
        ? log(150.0) : yearDigits > 3 ? log(31 * 12 * 150.0) : log(31 * 12 * 100.0)
      if separator != 0 { entropy += log(4.0) }
      recordWithRepeats(
        start: start, length: length, entropy: entropy, kind: .date, reversed: false,
        limit: limit, maximumLength: limit)
      if isCut { return }
      previousLength = length
    }
  }

  static let allDateFormats: [[UInt8]] = [
    "yyyy", "d?m?yy", "ddmmyy", "dmyyyy", "dd?m?yy", "d?mm?yy", "ddmyyyy", "dmmyyyy", "yyyymmd",
    "yyyymdd", "d?m?yyyy", "dd?mm?yy", "ddmmyyyy", "yyyy?m?d", "yyyymmdd", "dd?m?yyyy",
    "d?mm?yyyy", "yyyy?mm?d", "yyyy?m?dd", "dd?mm?yyyy", "yyyy?mm?dd",
  ].map { Array($0.utf8) }

  @inline(__always)
  private static func isDateSeparator(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x2F, 0x5C, 0x2D, 0x5F, 0x2E, 0x20: true
    default: false
    }
  }
}
