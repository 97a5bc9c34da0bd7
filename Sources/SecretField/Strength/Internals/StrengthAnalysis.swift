import Glibc

/// One estimate of a password's guesses, the way zxcvbn-c makes it, computed
/// on the password's scalars in the judge's secure scratch.
///
/// Every matcher (words of the lists and of the context, forwards and
/// reversed, with case changes and look-alike characters; keyboard walks;
/// sequences; repeats; dates) records the parts it finds as a cost in nats
/// (the natural logarithm of the guesses), keeping the cheapest per start and
/// end. Brute force joins the points where parts begin or end. The estimate
/// is the cheapest way through from the first scalar to the last: zxcvbn-c's
/// Dijkstra search, here a pass over the positions in order, since every part
/// goes forwards. A part that does not begin the password costs 1.75 bits
/// more, or 1 bit more when it ends it (zxcvbn-c's allowance for the
/// attacker's choice of where parts meet).
///
/// Everything here reads secret scalars in Swift: the judge runs it in an
/// `@inline(never)` worker and wipes the stack after.
struct StrengthAnalysis {
  let scratch: StrengthScratch
  /// Scalars looked at in detail (at most ``StrengthScratch/largestCapacity``).
  let count: Int
  let graph: WordGraph
  /// The keyboards and the date formats, read once per estimate rather than
  /// through their globals at every start.
  let keyboards: [KeyboardLayout]
  let dateFormats: [[UInt8]]
  let context: [ContextWord]
  /// The most steps the matchers may take.
  let stepLimit: Int
  /// Steps taken so far.
  var stepsTaken = 0
  /// True once the budget ran out.
  var isCut = false
  /// One bit per context word (long enough for the rule) found.
  var contextWordsFound: UInt64 = 0

  static let ln2 = 0.693_147_180_559_945_3

  init(scratch: StrengthScratch, count: Int, context: [ContextWord], budget: StrengthBudget) {
    self.scratch = scratch
    self.count = count
    self.graph = WordGraph.bundled
    self.keyboards = KeyboardLayout.all
    self.dateFormats = Self.allDateFormats
    self.context = context
    self.stepLimit = budget.steps
  }

  /// The scalar at `index` of the password read forwards, or of its reverse.
  @inline(__always)
  func character(_ index: Int, reversed: Bool) -> UInt32 {
    scratch.scalars[reversed ? count - 1 - index : index]
  }

  /// Takes one step of the budget; false once it is spent.
  @inline(__always)
  mutating func spend() -> Bool {
    stepsTaken &+= 1
    if stepsTaken > stepLimit { isCut = true }
    return !isCut
  }

  // MARK: Parts

  /// Records a part of `length` scalars at `begin` costing `entropy` nats,
  /// with the allowance for where it lies: none at the start, 1 bit when it
  /// is at least `maximumLength` long (it reaches the end of what its matcher
  /// looked at), 1.75 bits otherwise. Keeps the cheapest part per start and
  /// end, the first of equals.
  @inline(__always)
  func record(
    begin: Int, length: Int, entropy: Double, kind: StrengthPartKind, maximumLength: Int
  ) {
    var cost = entropy
    if begin > 0 { cost += (length >= maximumLength ? 1.0 : 1.75) * Self.ln2 }
    let cell = cellIndex(begin: begin, length: length)
    let stored = Float(cost)
    if stored < scratch.cells[cell] {
      scratch.cells[cell] = stored
      scratch.kinds[cell] = kind.rawValue
    }
    scratch.points[begin] |= 1
    scratch.points[begin + length] |= 2
  }

  /// Records the part and, as zxcvbn-c's `AddMatchRepeats` does, each run of
  /// it repeated right after itself (`abcabc`), costing log(repeats) more.
  ///
  /// `start` is where the part begins in the direction read; a reversed part
  /// repeats towards the password's start. `limit` bounds the repeats, and
  /// `maximumLength` is the allowance's (they differ for a reversed word).
  mutating func recordWithRepeats(
    start: Int, length: Int, entropy: Double, kind: StrengthPartKind, reversed: Bool,
    limit: Int, maximumLength: Int
  ) {
    let begin = reversed ? count - start - length : start
    record(begin: begin, length: length, entropy: entropy, kind: kind, maximumLength: maximumLength)
    var repeats = 2
    while limit >= length * repeats {
      let copy = start + length * (repeats - 1)
      var index = 0
      while index < length
        && character(start + index, reversed: reversed)
          == character(copy + index, reversed: reversed)
      {
        guard spend() else { return }
        index += 1
      }
      guard index == length else { return }
      let whole = length * repeats
      record(
        begin: reversed ? count - start - whole : start, length: whole,
        entropy: entropy + log(Double(repeats)), kind: kind.repeated,
        maximumLength: maximumLength)
      repeats += 1
    }
  }

  /// Where the part of `length` scalars at `begin` is kept in the triangle.
  @inline(__always)
  func cellIndex(begin: Int, length: Int) -> Int {
    begin * count - begin * (begin - 1) / 2 + length - 1
  }

  // MARK: The estimate

  /// Runs every matcher, then finds the cheapest split. Returns the cost in
  /// nats of the scalars looked at in detail, and the kinds of its parts.
  mutating func estimate(perCharacter: Double) -> (nats: Double, patterns: StrengthPatterns) {
    guard count > 0 else { return (0, []) }
    let cellCount = StrengthScratch.cellCount(for: count)
    scratch.cells.update(repeating: .infinity, count: cellCount)
    scratch.kinds.update(repeating: 0, count: cellCount)
    scratch.points.update(repeating: 0, count: count + 1)
    // The context first and without the budget: its rule must always be checked.
    for start in 0..<count {
      matchContextWords(start: start, reversed: false)
      matchContextWords(start: start, reversed: true)
    }
    for start in 0..<count where !isCut {
      matchWords(start: start, reversed: false)
      matchDates(start: start)
      matchKeyboards(start: start)
      matchSequence(start: start)
      matchRepeats(start: start)
    }
    for start in 0..<count where !isCut {
      matchWords(start: start, reversed: true)
    }
    addBruteForce(perCharacter: perCharacter)
    return cheapestSplit()
  }

  /// Brute force between every two points where a part begins or ends (and
  /// the password's ends), `perCharacter` nats a scalar.
  private func addBruteForce(perCharacter: Double) {
    scratch.points[0] |= 1
    scratch.points[count] |= 2
    for begin in 0..<count where scratch.points[begin] != 0 {
      for end in begin + 1...count where scratch.points[end] != 0 {
        record(
          begin: begin, length: end - begin, entropy: perCharacter * Double(end - begin),
          kind: .bruteForce, maximumLength: count - begin)
      }
    }
  }

  /// The cheapest way through the parts, position by position, and what
  /// kinds of part it is made of.
  private func cheapestSplit() -> (nats: Double, patterns: StrengthPatterns) {
    let distances = scratch.distances
    let previous = scratch.previous
    distances[0] = 0
    for end in 1...count {
      var best = Double.infinity
      var from = 0
      for begin in 0..<end {
        let cost = scratch.cells[cellIndex(begin: begin, length: end - begin)]
        guard cost < .infinity else { continue }
        let total = distances[begin] + Double(cost)
        if total < best {
          best = total
          from = begin
        }
      }
      distances[end] = best
      previous[end] = Int16(from)
    }
    var patterns: StrengthPatterns = []
    var end = count
    while end > 0 {
      let begin = Int(previous[end])
      let kind = scratch.kinds[cellIndex(begin: begin, length: end - begin)]
      patterns.formUnion(StrengthPartKind(rawValue: kind).patterns)
      end = begin
    }
    return (distances[count], patterns)
  }

  // MARK: Arithmetic, as zxcvbn-c does it

  /// The binomial coefficient, computed as zxcvbn-c computes it so that the
  /// two agree to the last bit.
  static func choose(_ n: Int, _ k: Int) -> Double {
    if k > n { return 0 }
    if k == 0 { return 1 }
    var result = 1.0
    var top = n
    for divisor in 1...k {
      result *= Double(top)
      top -= 1
      result /= Double(divisor)
    }
    return result
  }

  /// How many characters the class of `scalar` holds: 26 lower-case letters,
  /// 26 upper-case, 10 digits, 33 other ASCII, 100 for the rest.
  static func characterClass(_ scalar: UInt32) -> UInt8 {
    switch scalar {
    case 0x61...0x7A: 1
    case 0x41...0x5A: 2
    case 0x30...0x39: 4
    case 0..<0x80: 8
    default: 16
    }
  }

  /// The characters that classes (a mask of ``characterClass(_:)``) hold.
  static func cardinality(ofClasses classes: UInt8) -> Int {
    (classes & 1 != 0 ? 26 : 0) + (classes & 2 != 0 ? 26 : 0) + (classes & 4 != 0 ? 10 : 0)
      + (classes & 8 != 0 ? 33 : 0) + (classes & 16 != 0 ? 100 : 0)
  }
}

/// What kind of part the estimate found, kept beside each part's cost: the
/// kind in the low bits, and the high bit for a part repeated (`abcabc`).
struct StrengthPartKind: Hashable {
  let rawValue: UInt8

  static let bruteForce = StrengthPartKind(rawValue: 1)
  static let word = StrengthPartKind(rawValue: 2)
  static let commonPassword = StrengthPartKind(rawValue: 3)
  static let substitutedWord = StrengthPartKind(rawValue: 4)
  static let contextWord = StrengthPartKind(rawValue: 5)
  static let repeatedCharacter = StrengthPartKind(rawValue: 6)
  static let sequence = StrengthPartKind(rawValue: 7)
  static let keyboard = StrengthPartKind(rawValue: 8)
  static let date = StrengthPartKind(rawValue: 9)

  /// The same part, repeated right after itself.
  var repeated: StrengthPartKind { StrengthPartKind(rawValue: rawValue | 0x80) }

  /// The patterns a part of this kind stands for in the reasons.
  var patterns: StrengthPatterns {
    let base: StrengthPatterns =
      switch rawValue & 0x7F {
      case Self.bruteForce.rawValue: .bruteForce
      case Self.word.rawValue: .word
      case Self.commonPassword.rawValue: .commonPassword
      case Self.substitutedWord.rawValue: .substitutedWord
      case Self.contextWord.rawValue: .contextWord
      case Self.repeatedCharacter.rawValue: .repeated
      case Self.sequence.rawValue: .sequence
      case Self.keyboard.rawValue: .keyboard
      case Self.date.rawValue: .date
      default: []
      }
    // A part repeated is named for the repeat: `aaaa` is not "a word".
    return rawValue & 0x80 != 0 ? .repeated : base
  }
}
