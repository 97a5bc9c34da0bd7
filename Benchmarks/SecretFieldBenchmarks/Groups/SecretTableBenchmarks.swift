import Dispatch
import SecureMemory

/// `table_compare_32` and `table_compare_32_threads8`: a 32-byte candidate
/// compared with one of 20,000 32-byte secrets in a `SecretTable`, the
/// candidate's window held open across compares (the nested-window pattern),
/// from one thread and from eight at once. The figure is wall time per
/// compare, so compares a second are 10⁹ over it; the eight-thread figure is
/// the whole group's wall time over all their compares, and its baseline is
/// the one-thread figure of the same run (at or under 1.0×: eight threads do
/// at least what one does).
///
/// The entries are in sodium memory, as in the measurement; each
/// compare opens and closes the page of its entry (one protection pair).
struct SecretTableBenchmarks: BenchmarkGroup {
  let names = ["table_compare_32", "table_compare_32_threads8", "table_compare_32_unheld"]

  /// How many entries the table holds.
  static let entryCount = 20_000
  /// The compares of one timed iteration, split among the threads, so that
  /// starting the threads is a small part of it; figures are per compare.
  static let comparesPerIteration = 1_024

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let table = try SecretTable<Int>(name: "benchmark", storage: .sodium)
    var entry = try SecureBuffer(capacity: 32)
    for index in 0..<Self.entryCount {
      entry.removeAll()
      try entry.append(count: 32) { bytes in
        for offset in bytes.indices { bytes[offset] = UInt8(truncatingIfNeeded: index &+ offset) }
      }
      try table.insert(copying: entry, for: index)
    }
    var candidate = try SecureBuffer(capacity: 32)
    try candidate.append(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 0x5A) }

    let labels = ["1 thread, candidate held", "8 threads, candidates held", "1 thread, unheld"]
    let measurements = sampler.measure(labels) { variant, iterations in
      let compares = iterations * Self.comparesPerIteration
      switch variant {
      case 0:
        candidate.withUnsafeBytes { typed in
          var key = 0
          for _ in 0..<compares {
            blackhole(table.constantTimeEquals(bytes: typed, for: key) == true ? 1 : 0)
            key = (key &+ 7_919) % Self.entryCount
          }
        }
      case 1:
        let share = compares / 8
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
          var own = try! SecureBuffer(capacity: 32)
          try! own.append(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 0x5A) }
          own.withUnsafeBytes { typed in
            var key = thread * 2_500
            for _ in 0..<share {
              blackhole(table.constantTimeEquals(bytes: typed, for: key) == true ? 1 : 0)
              key = (key &+ 7_919) % Self.entryCount
            }
          }
        }
      default:
        var key = 0
        for _ in 0..<compares {
          blackhole(table.constantTimeEquals(candidate, for: key) == true ? 1 : 0)
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
        note: "wall time per compare of 20,000 entries, one protection pair each: 10^9 / ns"
          + " compares a second"),
      result(
        "table_compare_32_threads8", 1, baseline: ("table_compare_32 (1 thread)", 0),
        note: "eight threads' wall time over all their compares; at or under 1.0x means eight"
          + " threads do at least what one does"),
      result(
        "table_compare_32_unheld", 2, baseline: ("table_compare_32 (candidate held)", 0),
        note: "the candidate's window opened for each compare: two protection pairs"),
    ]
  }
}
