import SecureMemory

/// `alloc_free_64`: what a 64-byte `SecureBuffer` costs to create and drop,
/// beside raw libsodium, and what its verifying system calls cost on their own.
///
/// Six variants, interleaved:
/// - `SecureBuffer(capacity: 64)` created and dropped: `sodium_malloc`, the six
///   verifying calls, the gate, the owner's pid, `sodium_free`;
/// - raw `sodium_malloc(64)` + `memset` + `sodium_free` (the floor);
/// - the raw triple plus the same six verifying calls (the floor of a verified
///   allocation: what is left above it is Swift bookkeeping);
/// - the six verifying calls alone, re-applied to one live region;
/// - `SecureBuffer(capacity: 64, storage: .secretMemory)` created and dropped
///   (`alloc_free_64_secret`): `memfd_secret`, `ftruncate`, two `mmap`,
///   `close`, the first touch (the kernel takes the page out of its direct
///   map), five verifying calls, the wipe and one `munmap`;
/// - the raw secret-memory floor (`alloc_free_64_secret_raw`): the same
///   mapping calls, touch and `munmap` by hand, with no verification or wipe.
struct AllocationBenchmarks: BenchmarkGroup {
  let names = [
    "alloc_free_64", "alloc_free_64_raw_verified", "alloc_free_64_verification",
    "alloc_free_64_secret", "alloc_free_64_secret_raw",
  ]

  static let size = 64

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    // Fail here, with the library's own message, rather than inside the timing loop.
    _ = try SecureBuffer(capacity: Self.size)
    _ = try SecureBuffer(capacity: Self.size, storage: .secretMemory)
    let live = RawSodiumRegion(size: Self.size)
    defer { live.free() }

    let rawLabel = "sodium_malloc+memset+sodium_free"
    let measurements = sampler.measure(
      [
        "SecureBuffer", rawLabel, "raw+verification", "verification", "secret memory",
        "raw secret memory",
      ]
    ) { variant, iterations in
      switch variant {
      case 0:
        for _ in 0..<iterations {
          let buffer = try! SecureBuffer(capacity: Self.size)
          blackhole(buffer.capacity)
        }
      case 1:
        for _ in 0..<iterations {
          let region = RawSodiumRegion(size: Self.size)
          blackhole(UnsafeRawPointer(region.start))
          region.free()
        }
      case 2:
        for _ in 0..<iterations {
          let region = RawSodiumRegion(size: Self.size)
          region.applyVerificationCalls()
          region.free()
        }
      case 3:
        for _ in 0..<iterations { live.applyVerificationCalls() }
      case 4:
        for _ in 0..<iterations {
          let buffer = try! SecureBuffer(capacity: Self.size, storage: .secretMemory)
          blackhole(buffer.capacity)
        }
      default:
        for _ in 0..<iterations { RawSecretMemoryRegion.allocateTouchAndFree() }
      }
    }
    let raw = (label: rawLabel, measurement: measurements[1])
    return [
      .timed("alloc_free_64", measurements[0], baseline: raw),
      .timed(
        "alloc_free_64_raw_verified", measurements[2], baseline: raw,
        note: "raw sodium_malloc+memset+sodium_free plus the six verifying calls SecureBuffer"
          + " makes, without any Swift: the floor of a verified buffer"),
      .timed(
        "alloc_free_64_verification", measurements[3],
        note: "mlock, mprotect(PROT_NONE) x2 (guard pages), madvise(DONTDUMP),"
          + " madvise(WIPEONFORK), sodium_mprotect_noaccess, re-applied to one live region"),
      .timed(
        "alloc_free_64_secret", measurements[4], baseline: raw,
        note: "SecureBuffer(capacity: 64, storage: .secretMemory); "
          + "alloc_free_64 in the same run: \(measurements[0].nanosecondsPerIteration.median) ns"),
      .timed(
        "alloc_free_64_secret_raw", measurements[5], baseline: raw,
        note: "memfd_secret+ftruncate+mmap x2+close+first touch+munmap by hand: the floor "
          + "of a secret-memory buffer, what the kernel's direct-map change costs"),
    ]
  }
}
