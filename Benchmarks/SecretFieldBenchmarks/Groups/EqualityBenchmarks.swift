import CSodium
import SecureMemory

/// `equals_64`: `constantTimeEquals` of two equal 64-byte buffers, beside raw
/// `sodium_memcmp` inside the same two read windows opened with raw
/// `sodium_mprotect_*` calls: four protection changes and one comparison on
/// each side.
struct EqualityBenchmarks: BenchmarkGroup {
  let names = ["equals_64"]

  static let size = 64

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let contents = (0..<Self.size).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    var left = try SecureBuffer(capacity: Self.size)
    var right = try SecureBuffer(capacity: Self.size)
    try contents.withUnsafeBytes { bytes in
      try left.append(bytes)
      try right.append(bytes)
    }
    precondition(left.constantTimeEquals(right), "equals_64: the two buffers differ")

    let rawLeft = RawSodiumRegion(size: Self.size)
    let rawRight = RawSodiumRegion(size: Self.size)
    contents.withUnsafeBytes { bytes in
      rawLeft.start.copyMemory(from: bytes.baseAddress!, byteCount: Self.size)
      rawRight.start.copyMemory(from: bytes.baseAddress!, byteCount: Self.size)
    }
    rawLeft.protectNoAccess()
    rawRight.protectNoAccess()
    defer {
      rawLeft.free()
      rawRight.free()
    }

    let (subject, baseline) = sampler.compare(
      { iterations in
        for _ in 0..<iterations { blackhole(left.constantTimeEquals(right)) }
      },
      against: { iterations in
        for _ in 0..<iterations {
          rawLeft.protectReadOnly()
          rawRight.protectReadOnly()
          blackhole(Int(sodium_memcmp(rawLeft.start, rawRight.start, Self.size)))
          rawRight.protectNoAccess()
          rawLeft.protectNoAccess()
        }
      })
    return [
      .timed(
        "equals_64", subject,
        baseline: ("sodium_memcmp in raw sodium_mprotect_* windows", baseline))
    ]
  }
}
