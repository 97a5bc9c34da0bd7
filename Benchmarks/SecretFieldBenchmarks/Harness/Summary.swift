/// The median and 99th percentile of a run of samples, in the samples' unit.
struct Summary: Sendable {
  /// The middle sample (the mean of the two middle ones for an even count).
  let median: Double
  /// The nearest-rank 99th percentile: 99 % of the samples are at or below it.
  let p99: Double
  /// How many samples the figures come from.
  let sampleCount: Int

  /// Summarises `samples`.
  ///
  /// - Precondition: `samples` is not empty.
  /// - Complexity: O(n log n) for the sort.
  init(_ samples: [Double]) {
    precondition(!samples.isEmpty, "Summary of no samples")
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    median =
      sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    let rank = Int((Double(sorted.count) * 0.99).rounded(.up))
    p99 = sorted[max(0, rank - 1)]
    sampleCount = sorted.count
  }

  /// The same summary with every figure divided by `divisor`: per byte instead
  /// of per paste, say.
  func divided(by divisor: Double) -> Summary {
    Summary(median: median / divisor, p99: p99 / divisor, sampleCount: sampleCount)
  }

  private init(median: Double, p99: Double, sampleCount: Int) {
    self.median = median
    self.p99 = p99
    self.sampleCount = sampleCount
  }

  /// A summary of one figure that has no spread: a count or a mean from one pass.
  init(single value: Double) {
    median = value
    p99 = value
    sampleCount = 1
  }
}
