import AllocationCounter
import CZxcvbn
import SecretField

/// The strength verdict beside zxcvbn-c (Debian's libzxcvbn), the C port of
/// zxcvbn its estimate follows, on the same passwords in the same run:
///
/// - `strength_keystroke`: the judgement after one more character of a
///   20-character password, as a front end makes it after a key:
///   `SecretFieldState.strength(judgedBy:budget:)` on a field of 21
///   characters (eight different passwords, in turn), the field's window and
///   the scratch's included. Baseline: `ZxcvbnMatch` on the same 21
///   characters as a C string in ordinary memory. Target: median 25 µs.
/// - `strength_worst`: 64 repeated characters, the costliest input of that
///   length for both. Target: 5 ms.
/// - `strength_worst_100`: 100 repeated `1`s, the costliest input found (348k
///   steps; zxcvbn-c also looks at 100 characters in detail and no more).
/// - `strength_keystroke_allocations`: malloc, calloc and realloc calls per
///   judgement of the eight passwords, beside zxcvbn-c's.
struct StrengthBenchmarks: BenchmarkGroup {
  static let passwords = [
    "correcthorsebatteryst", "Tr0ub4dor&3Tr0ub4dor!", "kqzmvtwpxjrbnshyfdgcl",
    "P@ssw0rd2024!Summer_x", "qwertyuiop1234567890a", "ilovemycatsomuch2019!",
    "x7#Qp!vR2m@Lz9kW4e$Tu", "jennifer.smith.1985.A",
  ]
  static let countedJudgements = 1_000

  let names = [
    "strength_keystroke", "strength_worst", "strength_worst_100",
    "strength_keystroke_allocations",
  ]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    precondition(
      Self.passwords.allSatisfy { $0.unicodeScalars.count == 21 },
      "strength_keystroke: every password is 20 characters and one more")
    var judge = try StrengthJudge()
    let fields = try Self.passwords.map { try FieldBox(holding: $0) }
    let cStrings = Self.passwords.map { CString($0) }
    defer { cStrings.forEach { $0.free() } }

    // Counted after a first judgement, which builds the keyboard tables and
    // the word graph's index once for the process.
    blackhole(fields[0].field.strength(judgedBy: &judge).score)
    var allocations = 0
    var baselineAllocations = 0
    for index in 0..<Self.countedJudgements {
      let field = fields[index % fields.count]
      let before = allocation_counter_calls()
      blackhole(field.field.strength(judgedBy: &judge, budget: .keystroke).score)
      let middle = allocation_counter_calls()
      blackhole(ZxcvbnMatch(cStrings[index % cStrings.count].pointer, nil, nil) > 0)
      let after = allocation_counter_calls()
      allocations += Int(middle - before)
      baselineAllocations += Int(after - middle)
    }

    var next = 0
    let (keystroke, keystrokeBaseline) = sampler.compare(
      { iterations in
        for _ in 0..<iterations {
          next = next == fields.count - 1 ? 0 : next + 1
          blackhole(fields[next].field.strength(judgedBy: &judge, budget: .keystroke).score)
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          next = next == cStrings.count - 1 ? 0 : next + 1
          blackhole(ZxcvbnMatch(cStrings[next].pointer, nil, nil) > 0)
        }
      })

    let worst = try FieldBox(holding: String(repeating: "a", count: 64))
    let worstC = CString(String(repeating: "a", count: 64))
    defer { worstC.free() }
    let (worstSubject, worstBaseline) = sampler.forSlowOperations.compare(
      { iterations in
        for _ in 0..<iterations {
          blackhole(worst.field.strength(judgedBy: &judge).score)
        }
      },
      against: { iterations in
        for _ in 0..<iterations { blackhole(ZxcvbnMatch(worstC.pointer, nil, nil) > 0) }
      })

    let longest = try FieldBox(holding: String(repeating: "1", count: 100))
    let longestC = CString(String(repeating: "1", count: 100))
    defer { longestC.free() }
    let longestSteps = longest.field.strength(judgedBy: &judge).stepsTaken
    let (longestSubject, longestBaseline) = sampler.forSlowOperations.compare(
      { iterations in
        for _ in 0..<iterations {
          blackhole(longest.field.strength(judgedBy: &judge).score)
        }
      },
      against: { iterations in
        for _ in 0..<iterations { blackhole(ZxcvbnMatch(longestC.pointer, nil, nil) > 0) }
      })
    let nanosecondsPerStep =
      longestSubject.nanosecondsPerIteration.median / Double(longestSteps)

    return [
      .timed(
        "strength_keystroke", keystroke,
        baseline: (
          "zxcvbn-c ZxcvbnMatch, the same 21 characters, ordinary memory", keystrokeBaseline
        ),
        note: "field.strength(judgedBy:budget: .keystroke) of a 21-character field (eight"
          + " passwords in turn), both windows included; target: median 25 µs"),
      .timed(
        "strength_worst", worstSubject,
        baseline: ("zxcvbn-c ZxcvbnMatch, 64 repeated characters", worstBaseline),
        note: "a field of 64 repeated characters, unlimited budget; target: 5 ms"),
      .timed(
        "strength_worst_100", longestSubject,
        baseline: ("zxcvbn-c ZxcvbnMatch, 100 repeated 1s", longestBaseline),
        note: "100 repeated 1s, the costliest input found: \(longestSteps) steps,"
          + " \(String(format: nanosecondsPerStep)) ns a step"),
      BenchmarkResult(
        name: "strength_keystroke_allocations", unit: "calls",
        value: Summary(single: Double(allocations) / Double(Self.countedJudgements)),
        baseline: BenchmarkResult.Baseline(
          label: "zxcvbn-c ZxcvbnMatch",
          median: Double(baselineAllocations) / Double(Self.countedJudgements)),
        iterationsPerSample: nil,
        note: "malloc+calloc+realloc calls per judgement of a 21-character password, over"
          + " \(Self.countedJudgements); target 0"),
    ]
  }
}

/// A field in a class, so several can sit in an array.
private final class FieldBox {
  var field: SecretFieldState

  init(holding text: String) throws {
    field = try SecretFieldState.benchmarkField(holding: Array(text.utf8), limits: .default)
  }
}

/// A C string in ordinary memory, for zxcvbn-c: the baseline as its callers
/// (KeePassXC) hand it a password.
private struct CString {
  let pointer: UnsafeMutablePointer<CChar>

  init(_ text: String) {
    let bytes = Array(text.utf8CString)
    pointer = .allocate(capacity: bytes.count)
    pointer.initialize(from: bytes, count: bytes.count)
  }

  func free() { pointer.deallocate() }
}

extension String {
  /// `value` with two decimals, without Foundation.
  fileprivate init(format value: Double) {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
