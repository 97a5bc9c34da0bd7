import Glibc
public import SecureMemory

/// Judges new passwords by ``StrengthRules``, where they live: the password is
/// read inside its buffer's window and never copied out of secure memory.
///
/// The estimate runs on the password's scalars in a scratch buffer of the
/// judge's own (secure memory, like the password's), and every byte of it
/// that held anything is wiped before ``judge(_:budget:)`` returns, with the
/// stack below it: no lower-cased, reversed or decoded copy of the password
/// is left anywhere, and none ever reaches ordinary memory. The word lists are
/// walked one character at a time (the password is never turned into words),
/// and a reversed word is found by reading backwards.
///
/// Make one judge per field and keep it: judging allocates nothing. After
/// each edit, ``SecretFieldState/strength(judgedBy:budget:)`` judges the
/// field's text within a ``StrengthBudget``:
///
/// ```swift
/// var judge = try StrengthJudge(rules: StrengthRules(userName: "ada"))
/// // After each edit of `field`, a SecretFieldState:
/// let strength = field.strength(judgedBy: &judge, budget: .keystroke)
/// print(strength.summary)  // "refused: 9 characters; at least 15"
/// ```
///
/// - Complexity: 15 to 23 µs for a password of 21 characters on the
///   project's 2-core build machine, the two windows (the password's and the
///   scratch's) included, where zxcvbn-c takes 19 to 30 µs; 0.25 ms for 64
///   repeated characters; 1.6 ms for the costliest input found, 100 repeated
///   `1`s (`strength_*` in the benchmarks). Allocates nothing once the first
///   judgement in the process has built the keyboard tables and the word
///   graph's index.
public struct StrengthJudge: ~Copyable {
  /// The rules passwords are judged by.
  public let rules: StrengthRules
  let context: [ContextWord]
  /// The scratch for passwords of up to ``StrengthScratch/smallCapacity``
  /// bytes (one page), and the one for longer ones.
  var smallScratch: SecureBuffer
  var largeScratch: SecureBuffer
  /// Tests set this to leave the scratch as the estimate left it, to show
  /// that a scan finds what the wipe removes.
  package var skipsScratchWipeForTesting = false

  /// A judge of `rules`, with its scratch (one page for short passwords,
  /// about 27 KB for long ones) in buffers of its own.
  ///
  /// - Parameters:
  ///   - rules: what a password must meet.
  ///   - locking: what the scratch buffer does when a protection cannot be had.
  ///   - storage: which memory holds the scratch.
  /// - Throws: `SecureMemoryError` when the scratch buffer cannot be had.
  public init(
    rules: StrengthRules = StrengthRules(), locking: LockPolicy = .required,
    storage: SecureStorage = .sodium
  ) throws(SecureMemoryError) {
    self.rules = rules
    context = ContextWord.words(of: rules)
    let small = try Self.scratch(
      capacity: StrengthScratch.smallCapacity, locking: locking, storage: storage)
    let large = try Self.scratch(
      capacity: StrengthScratch.largestCapacity, locking: locking, storage: storage)
    smallScratch = small
    largeScratch = large
  }

  /// A buffer of zeros as long as a scratch for `capacity` scalars.
  private static func scratch(
    capacity: Int, locking: LockPolicy, storage: SecureStorage
  ) throws(SecureMemoryError) -> SecureBuffer {
    let byteCount = StrengthScratch.byteCount(for: capacity)
    var scratch = try SecureBuffer(capacity: byteCount, locking: locking, storage: storage)
    do {
      try scratch.append(count: byteCount) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    } catch {
      switch error {
      case .memory(let failure): throw failure
      }
    }
    return scratch
  }

  /// Judges the password in `password`.
  ///
  /// - Parameters:
  ///   - password: the password, UTF-8 (a byte that is not counts as one
  ///     character of its own); read inside its window.
  ///   - budget: how much the estimate may do; the rules of length, list and
  ///     context are checked in full whatever it is.
  /// - Complexity: two windows (the password's and the scratch's), the
  ///   estimate, and a 16 KiB stack wipe.
  public mutating func judge(
    _ password: borrowing SecureBuffer, budget: StrengthBudget = .unlimited
  ) -> PasswordStrength {
    password.withUnsafeBytes { bytes in judge(utf8: bytes, budget: budget) }
  }

  /// Judges the UTF-8 bytes `password`, which the caller keeps in secure
  /// memory and has open in a window (a field's `withSecret`).
  ///
  /// - Parameters:
  ///   - password: the password's bytes, read in place and never copied out
  ///     of secure memory.
  ///   - budget: how much the estimate may do; the rules of length, list and
  ///     context are checked in full whatever it is.
  public mutating func judge(
    utf8 password: UnsafeRawBufferPointer, budget: StrengthBudget = .unlimited
  ) -> PasswordStrength {
    let rules = rules
    let context = context
    let wipes = !skipsScratchWipeForTesting
    // A password of n bytes has at most n scalars.
    let result =
      password.count <= StrengthScratch.smallCapacity
      ? smallScratch.withUnsafeMutableBytes { bytes in
        Self.judge(
          password, scratch: StrengthScratch(bytes, capacity: StrengthScratch.smallCapacity),
          rules, context, budget, wipes: wipes)
      }
      : largeScratch.withUnsafeMutableBytes { bytes in
        Self.judge(
          password, scratch: StrengthScratch(bytes, capacity: StrengthScratch.largestCapacity),
          rules, context, budget, wipes: wipes)
      }
    wipeStack()
    return result
  }

  /// The whole judgement, on secret bytes: not inlined, so that the caller's
  /// stack wipe reaches everything it spilled.
  @inline(never)
  private static func judge(
    _ password: UnsafeRawBufferPointer, scratch: StrengthScratch, _ rules: StrengthRules,
    _ context: [ContextWord], _ budget: StrengthBudget, wipes: Bool
  ) -> PasswordStrength {
    // The scalars, the first `capacity` kept for the matchers; all counted,
    // and their classes noted for brute force.
    var length = 0
    var classes: UInt8 = 0
    var iterator = password.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    decoding: while true {
      let scalar: UInt32
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): scalar = Unicode.UTF8.decode(encoded).value
      case .error: scalar = 0xFFFD
      case .emptyInput: break decoding
      }
      if length < scratch.capacity { scratch.scalars[length] = scalar }
      classes |= StrengthAnalysis.characterClass(scalar)
      length += 1
    }
    let detailed = min(length, scratch.capacity)
    var analysis = StrengthAnalysis(
      scratch: scratch, count: detailed, context: context, budget: budget)
    let perCharacter = log(Double(StrengthAnalysis.cardinality(ofClasses: classes)))
    var (nats, patterns) = analysis.estimate(perCharacter: perCharacter)
    if length > detailed {
      // zxcvbn-c's tail past its detail: about what a sequence that long costs.
      nats += log(2 * Double(length - detailed)) + 1.75 * StrengthAnalysis.ln2
    }
    let isCommon = isOnPasswordList(password, graph: analysis.graph)
    if wipes { scratch.wipe(count: detailed) }

    let guessesLog10 = nats / log(10.0)
    let score = thresholds.firstIndex { guessesLog10 < $0 } ?? 4
    var broken: BrokenRules = []
    if length < rules.minimumLength { broken.insert(.minimumLength) }
    if isCommon { broken.insert(.commonPassword) }
    if analysis.contextWordsFound != 0 { broken.insert(.contextWord) }
    if score < rules.minimumScore { broken.insert(.expectedValue) }
    return PasswordStrength(
      score: score, guessesLog10: guessesLog10, length: length, isComplete: !analysis.isCut,
      stepsTaken: min(analysis.stepsTaken, budget.steps), broken: broken, patterns: patterns,
      rules: rules,
      contextWordsFound: analysis.contextWordsFound)
  }

  /// How many words the bundled lists hold, and how many of them are
  /// passwords (`Sources/CPasswordLists/NOTICE.md`): for tests.
  package static var bundledListCounts: (words: Int, passwords: Int) {
    WordGraph.bundled.wordCounts()
  }

  /// log10 of zxcvbn's score thresholds: a thousand guesses, a million, a
  /// hundred million, ten billion, each plus 5.
  private static let thresholds = [1e3 + 5, 1e6 + 5, 1e8 + 5, 1e10 + 5].map { log10($0) }

  /// True when the whole password, ASCII letters in any case, is a word of
  /// the bundled password list: walked through the graph character by
  /// character, never lower-cased into a copy.
  private static func isOnPasswordList(_ password: UnsafeRawBufferPointer, graph: WordGraph) -> Bool
  {
    guard !password.isEmpty else { return false }
    var node = graph.root
    for byte in password {
      let character = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
      node = graph.child(of: node, character: character)
      if node == WordGraph.none { return false }
    }
    return graph.endsWord(node) && graph.isPassword(node)
  }
}
