/// Times several variants of one operation in the same process, interleaved
/// sample by sample (A, B, C, then B, C, A, ...), so that whatever else the
/// machine is doing slows every variant alike and their ratio stays honest.
struct Sampler {
  let plan: SamplingPlan

  /// A sampler for operations that take milliseconds (Argon2id, a process
  /// start): a twenty-fifth of the minimum samples, at least three, so a full
  /// run stays within its time box and a quick one within a second.
  var forSlowOperations: Sampler {
    var plan = plan
    plan.minimumSamples = max(3, plan.minimumSamples / 25)
    return Sampler(plan: plan)
  }

  /// What one variant measured: time per iteration, in nanoseconds.
  struct Measurement {
    /// The variant's label, as passed in.
    let label: String
    /// Median and p99 over the samples, each sample a mean over its batch.
    let nanosecondsPerIteration: Summary
    /// How many iterations each sample ran (calibrated in the warm-up).
    let iterationsPerSample: Int
  }

  /// Measures the variants named by `labels`.
  ///
  /// `run(variant, iterations)` must perform `iterations` iterations of the
  /// variant at index `variant` and feed what they produce to ``blackhole(_:)``.
  /// It is called with the clock read right before and right after.
  ///
  /// - Complexity: runs for about `plan.warmUp + plan.timeBox`.
  func measure(
    _ labels: [String], run: (_ variant: Int, _ iterations: Int) -> Void
  ) -> [Measurement] {
    precondition(!labels.isEmpty, "Sampler.measure needs at least one variant")
    let batches = warmUp(variants: labels.count, run: run)
    return sample(labels, batches: batches) { variant, iterations in
      let start = MonotonicClock.now()
      run(variant, iterations)
      return MonotonicClock.now() - start
    }
  }

  /// Measures variants whose one iteration is long (a paste of a megabyte) and
  /// needs fresh state: every sample is a single iteration, with `prepare`
  /// run before the clock starts and `finish` after it stops, so neither is
  /// timed.
  ///
  /// `run(variant)` performs one iteration of the variant at index `variant`
  /// on what `prepare(variant)` made; `finish(variant)` feeds the outcome to
  /// ``blackhole(_:)`` and releases it.
  ///
  /// - Complexity: runs for about `plan.warmUp + plan.timeBox`, and at least
  ///   `plan.minimumSamples` iterations of each variant.
  func measureSingleIterations(
    _ labels: [String], prepare: (_ variant: Int) -> Void, run: (_ variant: Int) -> Void,
    finish: (_ variant: Int) -> Void
  ) -> [Measurement] {
    precondition(!labels.isEmpty, "Sampler.measureSingleIterations needs at least one variant")
    func timed(_ variant: Int) -> UInt64 {
      prepare(variant)
      let start = MonotonicClock.now()
      run(variant)
      let elapsed = MonotonicClock.now() - start
      finish(variant)
      return elapsed
    }
    let deadline = MonotonicClock.now() + plan.warmUp.nanoseconds
    repeat {
      for variant in labels.indices { _ = timed(variant) }
    } while MonotonicClock.now() < deadline
    return sample(labels, batches: Array(repeating: 1, count: labels.count)) { variant, _ in
      timed(variant)
    }
  }

  /// Takes samples of every variant in rounds until the plan is met; `timedRun`
  /// runs a batch and returns the nanoseconds it took.
  private func sample(
    _ labels: [String], batches: [Int],
    timedRun: (_ variant: Int, _ iterations: Int) -> UInt64
  ) -> [Measurement] {
    var samples = Array(repeating: [Double](), count: labels.count)
    for index in samples.indices { samples[index].reserveCapacity(plan.minimumSamples) }
    let deadline = MonotonicClock.now() + plan.timeBox.nanoseconds
    var rounds = 0
    while rounds < plan.maximumSamples
      && (rounds < plan.minimumSamples || MonotonicClock.now() < deadline)
    {
      // Each round starts one variant later (A B C, B C A, C A B, ...; for two:
      // A B, B A), so no variant always follows the same neighbour or sits in
      // the same place in the round: mmap reuses what the previous variant just
      // unmapped, and that bias alone moved alloc figures by 1 µs.
      for step in labels.indices {
        let variant = (rounds + step) % labels.count
        let iterations = batches[variant]
        let elapsed = timedRun(variant, iterations)
        samples[variant].append(Double(elapsed) / Double(iterations))
      }
      rounds += 1
    }
    return labels.indices.map { variant in
      Measurement(
        label: labels[variant], nanosecondsPerIteration: Summary(samples[variant]),
        iterationsPerSample: batches[variant])
    }
  }

  /// Compares `subject` with `baseline`, interleaved. Each closure performs the
  /// given number of iterations.
  func compare(
    _ subject: (_ iterations: Int) -> Void, against baseline: (_ iterations: Int) -> Void
  ) -> (subject: Measurement, baseline: Measurement) {
    let measurements = measure(["subject", "baseline"]) { variant, iterations in
      if variant == 0 { subject(iterations) } else { baseline(iterations) }
    }
    return (measurements[0], measurements[1])
  }

  /// Runs every variant, interleaved, for the warm-up time, doubling each one's
  /// batch until a batch lasts `minimumSampleDuration`. Returns the batch sizes.
  private func warmUp(variants: Int, run: (Int, Int) -> Void) -> [Int] {
    let target = plan.minimumSampleDuration.nanoseconds
    var batches = Array(repeating: 1, count: variants)
    let deadline = MonotonicClock.now() + plan.warmUp.nanoseconds
    repeat {
      for variant in 0..<variants {
        let start = MonotonicClock.now()
        run(variant, batches[variant])
        let elapsed = MonotonicClock.now() - start
        if elapsed < target && batches[variant] < 1 << 24 { batches[variant] *= 2 }
      }
    } while MonotonicClock.now() < deadline
    return batches
  }
}
