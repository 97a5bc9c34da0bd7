import Dispatch
import SecureMemory
import Synchronization

/// `table_compare_32` and `table_compare_32_threads8`: a 32-byte candidate
/// compared with one of 20,000 32-byte secrets in a `SecretTable`, the
/// candidate's window held open across compares (the nested-window pattern),
/// from one thread and from eight at once. The figure is wall time per
/// compare, so compares a second are 10⁹ over it; the eight-thread figure is
/// the whole group's wall time over all their compares, and its baseline is
/// the one-thread figure of the same run: its inverse is the throughput of
/// eight threads against one (two cores: at most 2).
///
/// The plain names are the default table (sealed storage: each compare
/// decrypts its entry into the thread's scratch, no system call); `_guarded`
/// is the same on a table in sodium memory (each compare opens and closes
/// its entry's page, one protection pair), measured in the same run.
struct SecretTableBenchmarks: BenchmarkGroup {
  let names = [
    "table_compare_32", "table_compare_32_threads8", "table_compare_32_unheld",
    "table_compare_32_guarded", "table_compare_32_threads8_guarded",
  ]

  /// How many entries the table holds.
  static let entryCount = 20_000
  /// The compares of one timed iteration, split among the threads, so that
  /// starting the threads is a small part of it; figures are per compare.
  static let comparesPerIteration = 8_192

  static func filled(_ table: SecretTable<Int>) throws -> SecretTable<Int> {
    var entry = try SecureBuffer(capacity: 32)
    for index in 0..<Self.entryCount {
      entry.removeAll()
      try entry.append(count: 32) { bytes in
        for offset in bytes.indices { bytes[offset] = UInt8(truncatingIfNeeded: index &+ offset) }
      }
      try table.insert(copying: entry, for: index)
    }
    return table
  }

  /// `compares` compares from one thread, the candidate held; how many
  /// matched (kept in a local, not the shared sink: eight threads writing one
  /// global would measure its cache line going back and forth).
  ///
  /// The candidate is an ordinary array here, a benchmark's stand-in for a
  /// window held open on one: the figure is the table's side alone.
  static func compare(_ table: SecretTable<Int>, _ compares: Int, from start: Int = 0) -> Int {
    [UInt8](repeating: 0x5A, count: 32).withUnsafeBytes { typed in
      var key = start
      var matched = 0
      for _ in 0..<compares {
        if try! table.constantTimeEquals(bytes: typed, for: key) == true { matched += 1 }
        key = (key &+ 7_919) % Self.entryCount
      }
      return matched
    }
  }

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let table = try Self.filled(SecretTable<Int>(name: "benchmark"))
    let guarded = try Self.filled(SecretTable<Int>(name: "benchmark (guarded)", storage: .sodium))
    precondition(table.arena.storage == .sealed, "the default table is not sealed")
    var candidate = try SecureBuffer(capacity: 32)
    try candidate.append(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 0x5A) }

    let labels = [
      "1 thread, candidate held", "8 threads, candidates held", "1 thread, unheld",
      "guarded, 1 thread", "guarded, 8 threads",
    ]
    let measurements = sampler.measure(labels) { variant, iterations in
      let compares = iterations * Self.comparesPerIteration
      switch variant {
      case 0: blackhole(Self.compare(table, compares))
      case 3: blackhole(Self.compare(guarded, compares))
      case 1, 4:
        let share = compares / 8
        let subject = variant == 1 ? table : guarded
        let matched = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
          matched.add(Self.compare(subject, share, from: thread * 2_500), ordering: .relaxed)
        }
        blackhole(matched.load(ordering: .relaxed))
      default:
        var key = 0
        for _ in 0..<compares {
          blackhole(try! table.constantTimeEquals(candidate, for: key) == true ? 1 : 0)
          key = (key &+ 7_919) % Self.entryCount
        }
      }
    }
    func perCompare(_ measurement: Sampler.Measurement) -> Summary {
      measurement.nanosecondsPerIteration.divided(by: Double(Self.comparesPerIteration))
    }
    func result(
      _ name: String, _ index: Int, baseline: (String, Int)? = nil, note: String
    ) -> BenchmarkResult {
      BenchmarkResult(
        name: name, unit: "ns", value: perCompare(measurements[index]),
        baseline: baseline.map {
          BenchmarkResult.Baseline(label: $0.0, median: perCompare(measurements[$0.1]).median)
        },
        iterationsPerSample: measurements[index].iterationsPerSample, note: note)
    }
    return [
      result(
        "table_compare_32", 0,
        note: "wall time per compare of 20,000 sealed entries, one decryption each: 10^9 / ns"
          + " compares a second"),
      result(
        "table_compare_32_threads8", 1, baseline: ("table_compare_32 (1 thread)", 0),
        note: "eight threads' wall time over all their compares; 1 / ratio is the throughput of"
          + " eight threads against one"),
      result(
        "table_compare_32_unheld", 2, baseline: ("table_compare_32 (candidate held)", 0),
        note: "the candidate's own window opened for each compare (a sodium buffer: a"
          + " protection pair)"),
      result(
        "table_compare_32_guarded", 3, baseline: ("table_compare_32 (sealed)", 0),
        note: "the same compares on a table in sodium memory: one protection pair each"),
      result(
        "table_compare_32_threads8_guarded", 4, baseline: ("table_compare_32_guarded", 3),
        note: "eight threads on the guarded table: the mprotect pairs queue on the"
          + " memory-map lock"),
    ]
  }
}
