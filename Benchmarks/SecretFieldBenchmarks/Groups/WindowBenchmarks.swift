import SecureMemory

/// `window_read`: one read window on a `SecureBuffer`, beside the raw
/// `sodium_mprotect_readonly` + `sodium_mprotect_noaccess` pair. Both read one
/// byte inside the window, so the window is really used.
struct WindowBenchmarks: BenchmarkGroup {
  let names = ["window_read"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let contents = [UInt8](repeating: 0x5A, count: 64)
    var buffer = try SecureBuffer(capacity: contents.count)
    try contents.withUnsafeBytes { bytes in try buffer.append(bytes) }
    let raw = RawSodiumRegion(size: contents.count, fill: 0x5A)
    raw.protectNoAccess()
    defer { raw.free() }

    let (subject, baseline) = sampler.compare(
      { iterations in
        for _ in 0..<iterations {
          buffer.withUnsafeBytes { bytes in blackhole(Int(bytes[0])) }
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          raw.protectReadOnly()
          blackhole(Int(raw.start.load(as: UInt8.self)))
          raw.protectNoAccess()
        }
      })
    return [
      .timed(
        "window_read", subject,
        baseline: ("sodium_mprotect_readonly+sodium_mprotect_noaccess", baseline))
    ]
  }
}
