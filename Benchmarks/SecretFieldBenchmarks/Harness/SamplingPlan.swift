/// How long to warm up and measure each benchmark, and how finely to sample.
struct SamplingPlan: Sendable {
  /// Time spent running every variant before any sample counts: caches, branch
  /// predictors, lazily bound symbols and the page allocator settle, and each
  /// variant's batch size is calibrated.
  var warmUp: Duration
  /// Time spent sampling one benchmark (all its variants together), after the
  /// warm-up. Sampling stops at this time box once `minimumSamples` are in.
  var timeBox: Duration
  /// Each sample runs enough iterations of its variant to last at least this
  /// long, so the clock's own cost (about 20 ns a read) stays below 0.2 %.
  var minimumSampleDuration: Duration
  /// Samples per variant to collect even when the time box has run out.
  var minimumSamples: Int
  /// Samples per variant after which sampling stops early.
  var maximumSamples: Int

  /// The full run: figures stable to a few percent on a quiet 2-core machine.
  static let full = SamplingPlan(
    warmUp: .milliseconds(300), timeBox: .seconds(4), minimumSampleDuration: .microseconds(20),
    minimumSamples: 500, maximumSamples: 500_000)

  /// A smoke run: every benchmark runs, in a few seconds in total. The figures
  /// are rough; CI runs it so the target keeps building and running.
  static let quick = SamplingPlan(
    warmUp: .milliseconds(20), timeBox: .milliseconds(150),
    minimumSampleDuration: .microseconds(20),
    minimumSamples: 20, maximumSamples: 50_000)
}

extension Duration {
  /// The duration in nanoseconds, for comparison with ``MonotonicClock`` readings.
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
