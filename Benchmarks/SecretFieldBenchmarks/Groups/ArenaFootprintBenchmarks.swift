import SecureMemory

/// `arena_locked_bytes_per_secret`, `arena_mappings_per_secret` and
/// `arena_100k_live`: what 100,000 live 32-byte secrets in one `SecureArena`
/// cost in locked memory (`VmLck`, against `RLIMIT_MEMLOCK`) and in memory
/// mappings (against `vm.max_map_count`), per secret, beside 1,000
/// `SecureBuffer`s of their own (100,000 of those would pass both limits); and
/// how long allocating them all, touching each in a window and freeing them
/// all takes. The plain names are a sodium arena's; `_secret` the same for an
/// arena whose slabs are in secret memory (`memfd_secret`), in the same run.
struct ArenaFootprintBenchmarks: BenchmarkGroup {
  let names = [
    "arena_locked_bytes_per_secret", "arena_mappings_per_secret", "arena_100k_live",
    "arena_locked_bytes_per_secret_secret", "arena_mappings_per_secret_secret",
    "arena_100k_live_secret",
  ]

  static let secretCount = 100_000
  static let ownBufferCount = 1_000
  static let secretSize = 32

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let arena = try SecureArena(name: "footprint", storage: .sodium)
    let perSecret = try Self.footprint(count: Self.secretCount) { buffers, index in
      (buffers + index).initialize(to: try SecureBuffer(capacity: Self.secretSize, in: arena))
    }
    let secretArena = try SecureArena(name: "footprint (secret memory)", storage: .secretMemory)
    let perSecretInSecretMemory = try Self.footprint(count: Self.secretCount) { buffers, index in
      (buffers + index).initialize(
        to: try SecureBuffer(capacity: Self.secretSize, in: secretArena))
    }
    let perOwnBuffer = try Self.footprint(count: Self.ownBufferCount) { buffers, index in
      (buffers + index).initialize(to: try SecureBuffer(capacity: Self.secretSize))
    }

    // One pass makes 600,000 mprotect calls, about a second: seven in a full
    // run; a quick run makes one pass over a tenth of the secrets, to keep CI
    // cheap (its figure is then for 10,000).
    let isQuick = sampler.plan.minimumSamples < 100
    let passes = isQuick ? 1 : 7
    let liveCount = isQuick ? Self.secretCount / 10 : Self.secretCount
    var samples: [Double] = []
    var secretSamples: [Double] = []
    for _ in 0..<passes {
      samples.append(Double(try Self.liveCycle(liveCount, in: arena)))
      secretSamples.append(Double(try Self.liveCycle(liveCount, in: secretArena)))
    }

    let label = "SecureBuffer(capacity: \(Self.secretSize)), \(Self.ownBufferCount) live"
    return [
      BenchmarkResult(
        name: "arena_locked_bytes_per_secret", unit: "bytes",
        value: Summary(single: perSecret.lockedBytes),
        baseline: .init(label: label, median: perOwnBuffer.lockedBytes),
        iterationsPerSample: nil,
        note: "\(Self.secretCount) live \(Self.secretSize)-byte secrets in one arena;"
          + " (after - before) / count, from VmLck and the lines of /proc/self/maps"),
      BenchmarkResult(
        name: "arena_mappings_per_secret", unit: "mappings",
        value: Summary(single: perSecret.mappings),
        baseline: .init(label: label, median: perOwnBuffer.mappings), iterationsPerSample: nil),
      BenchmarkResult(
        name: "arena_100k_live", unit: "ns", value: Summary(samples), baseline: nil,
        iterationsPerSample: 1,
        note: "allocate \(liveCount) 32-byte secrets in an arena and fill each in a"
          + " write window, read a byte of each in a read window, free them all;"
          + " \(passes) passes"),
      BenchmarkResult(
        name: "arena_locked_bytes_per_secret_secret", unit: "bytes",
        value: Summary(single: perSecretInSecretMemory.lockedBytes),
        baseline: .init(label: label, median: perOwnBuffer.lockedBytes),
        iterationsPerSample: nil,
        note: "the same in secret-memory slabs: memfd_secret pages count in VmLck"),
      BenchmarkResult(
        name: "arena_mappings_per_secret_secret", unit: "mappings",
        value: Summary(single: perSecretInSecretMemory.mappings),
        baseline: .init(label: label, median: perOwnBuffer.mappings), iterationsPerSample: nil),
      BenchmarkResult(
        name: "arena_100k_live_secret", unit: "ns", value: Summary(secretSamples), baseline: nil,
        iterationsPerSample: 1, note: "the same cycle in secret-memory slabs, passes interleaved"),
    ]
  }

  /// Locked bytes and mappings per secret, from one pass.
  struct Footprint {
    var lockedBytes: Double
    var mappings: Double
  }

  /// Makes `count` buffers with `make`, reads the process's locked bytes and
  /// mappings while they are alive, drops them, and returns the difference per
  /// buffer.
  private static func footprint(
    count: Int,
    make: (UnsafeMutablePointer<SecureBuffer>, Int) throws -> Void
  ) throws -> Footprint {
    let before = (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    let buffers = UnsafeMutablePointer<SecureBuffer>.allocate(capacity: count)
    var made = 0
    defer {
      buffers.deinitialize(count: made)
      buffers.deallocate()
    }
    for index in 0..<count {
      try make(buffers, index)
      made += 1
    }
    let during = (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    return Footprint(
      lockedBytes: Double(during.0 - before.0) / Double(count),
      mappings: Double(during.1 - before.1) / Double(count))
  }

  /// One `arena_100k_live` pass, in nanoseconds.
  private static func liveCycle(_ secretCount: Int, in arena: SecureArena) throws -> UInt64 {
    let buffers = UnsafeMutablePointer<SecureBuffer>.allocate(capacity: secretCount)
    defer { buffers.deallocate() }
    let start = MonotonicClock.now()
    for index in 0..<secretCount {
      var buffer = try SecureBuffer(capacity: secretSize, in: arena)
      try buffer.append(count: secretSize) { $0.initializeMemory(as: UInt8.self, repeating: 0x5A) }
      (buffers + index).initialize(to: buffer)
    }
    for index in 0..<secretCount {
      buffers[index].withUnsafeBytes { blackhole(Int($0[secretSize - 1])) }
    }
    buffers.deinitialize(count: secretCount)
    return MonotonicClock.now() - start
  }
}
