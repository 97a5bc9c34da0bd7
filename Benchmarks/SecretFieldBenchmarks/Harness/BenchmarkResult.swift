/// One line of the results: a figure, and the baseline it is compared with when
/// there is one.
struct BenchmarkResult: Sendable {
  /// The figure's name, as the issue gives it, so runs can be compared.
  let name: String
  /// What the figures count: `ns` per iteration, `bytes`, `mappings`.
  let unit: String
  /// The figure itself.
  let value: Summary
  /// The baseline measured in the same run, if any.
  let baseline: Baseline?
  /// How many iterations each timed sample ran; nil for figures that are not
  /// timed.
  let iterationsPerSample: Int?
  /// A sentence printed under the table: what the figure includes, or what it
  /// is derived from.
  var note: String? = nil

  /// A baseline: what it is and what it measured.
  struct Baseline: Sendable {
    /// What the baseline does, such as `sodium_malloc+memset+sodium_free`.
    let label: String
    /// The baseline's median, in the figure's unit.
    let median: Double
  }

  /// median / baseline median, from the same run.
  var ratio: Double? {
    guard let baseline, baseline.median > 0 else { return nil }
    return value.median / baseline.median
  }

  /// A timed figure, with or without a baseline.
  static func timed(
    _ name: String, _ measurement: Sampler.Measurement,
    baseline: (label: String, measurement: Sampler.Measurement)? = nil, note: String? = nil
  ) -> BenchmarkResult {
    BenchmarkResult(
      name: name, unit: "ns", value: measurement.nanosecondsPerIteration,
      baseline: baseline.map {
        Baseline(label: $0.label, median: $0.measurement.nanosecondsPerIteration.median)
      },
      iterationsPerSample: measurement.iterationsPerSample, note: note)
  }
}
