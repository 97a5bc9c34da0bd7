import SecureMemory

/// `locked_bytes_per_secret` and `mappings_per_secret`: what 1,000 live 32-byte
/// secrets cost in locked memory (`VmLck`, against `RLIMIT_MEMLOCK`) and in
/// memory mappings (against `vm.max_map_count`), per secret, beside 1,000 raw
/// `sodium_malloc(32)` allocations.
///
/// Each figure is the before/after difference over the whole set divided by
/// the count: one pass, so median and p99 are that one mean.
struct LockedMemoryBenchmarks: BenchmarkGroup {
  let names = ["locked_bytes_per_secret", "mappings_per_secret"]

  static let secretCount = 1_000
  static let secretSize = 32

  /// Locked bytes and mappings per secret, from one pass.
  struct Footprint {
    var lockedBytes: Double
    var mappings: Double
  }

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let secure = try Self.footprint {
      let buffers = UnsafeMutablePointer<SecureBuffer>.allocate(capacity: Self.secretCount)
      var made = 0
      defer {
        buffers.deinitialize(count: made)
        buffers.deallocate()
      }
      for index in 0..<Self.secretCount {
        (buffers + index).initialize(to: try SecureBuffer(capacity: Self.secretSize))
        made += 1
      }
      return try $0()
    }
    let raw = try Self.footprint {
      let regions = (0..<Self.secretCount).map { _ in RawSodiumRegion(size: Self.secretSize) }
      defer { for region in regions { region.free() } }
      return try $0()
    }
    let label = "sodium_malloc(\(Self.secretSize))"
    let note =
      "\(Self.secretCount) live \(Self.secretSize)-byte secrets; (after - before) / count,"
      + " from VmLck in /proc/self/status and the lines of /proc/self/maps"
    return [
      BenchmarkResult(
        name: "locked_bytes_per_secret", unit: "bytes", value: Summary(single: secure.lockedBytes),
        baseline: .init(label: label, median: raw.lockedBytes), iterationsPerSample: nil,
        note: note),
      BenchmarkResult(
        name: "mappings_per_secret", unit: "mappings", value: Summary(single: secure.mappings),
        baseline: .init(label: label, median: raw.mappings), iterationsPerSample: nil),
    ]
  }

  /// Reads the process's locked bytes and mappings, lets `allocate` make the
  /// secrets and call back while they are alive, and returns the difference per
  /// secret.
  private static func footprint(
    _ allocate: (_ whileAlive: () throws -> (Int, Int)) throws -> (Int, Int)
  ) throws -> Footprint {
    let before = (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    let during = try allocate {
      (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    }
    let count = Double(secretCount)
    return Footprint(
      lockedBytes: Double(during.0 - before.0) / count,
      mappings: Double(during.1 - before.1) / count)
  }
}
