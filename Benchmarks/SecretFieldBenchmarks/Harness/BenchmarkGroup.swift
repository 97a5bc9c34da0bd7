/// One group of related figures, measured together in one file.
///
/// Adding a benchmark means adding one file with one type conforming to this,
/// and one line to ``Registry/groups``.
protocol BenchmarkGroup: Sendable {
  /// The names of the figures the group reports. `--filter` matches against
  /// these; the group runs when any of them is selected.
  var names: [String] { get }

  /// Measures the group's figures and returns one result per name (the runner
  /// drops those the filter did not select).
  ///
  /// - Throws: when the group cannot run at all (no memory to allocate, say);
  ///   the runner reports it and goes on with the other groups.
  func run(with sampler: Sampler) throws -> [BenchmarkResult]
}
