import SecureMemory

/// `window_read`: one read window on a `SecureBuffer`, beside the raw
/// `sodium_mprotect_readonly` + `sodium_mprotect_noaccess` pair. Both read one
/// byte inside the window, so the window is really used. `window_read_secret`:
/// the same window on a secret-memory buffer, beside the sodium buffer's.
struct WindowBenchmarks: BenchmarkGroup {
  let names = ["window_read", "window_read_secret"]

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
    var secret = try SecureBuffer(capacity: contents.count, storage: .secretMemory)
    try contents.withUnsafeBytes { bytes in try secret.append(bytes) }
    let (secretWindow, sodiumWindow) = sampler.compare(
      { iterations in
        for _ in 0..<iterations {
          secret.withUnsafeBytes { bytes in blackhole(Int(bytes[0])) }
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          buffer.withUnsafeBytes { bytes in blackhole(Int(bytes[0])) }
        }
      })
    return [
      .timed(
        "window_read", subject,
        baseline: ("sodium_mprotect_readonly+sodium_mprotect_noaccess", baseline)),
      .timed(
        "window_read_secret", secretWindow,
        baseline: ("window_read (a sodium SecureBuffer)", sodiumWindow)),
    ]
  }
}
