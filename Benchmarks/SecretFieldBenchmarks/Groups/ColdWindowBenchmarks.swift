import Glibc
import SecureMemory

/// `window_open_cold`: what opening a window costs when a key arrives after a
/// pause, as every key does: one `sodium_mprotect_readwrite` on a raw
/// `sodium_malloc` region of one page, timed right after 10 ms of sleep,
/// against the same call made warm (the previous one just closed).
///
/// The prompt must open its input's window before it can `read` a key (a
/// buffer is no-access outside windows), so this call lies between every
/// key's arrival and its echo. `systemd-ask-password`'s whole path from the
/// wake to the echo's `write` is about 21 µs (the syscall trace in the
/// README): a cold window alone costs about as much.
struct ColdWindowBenchmarks: BenchmarkGroup {
  static let pause: useconds_t = 10_000

  let names = ["window_open_cold"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    // libsodium is initialised by the first SecureBuffer.
    _ = try SecureBuffer(capacity: 1)
    let region = RawSodiumRegion(size: 256, fill: 0x61)
    region.protectNoAccess()
    defer { region.free() }
    let measurements = sampler.forSlowOperations.measureSingleIterations(
      ["cold", "warm"],
      prepare: { variant in
        if variant == 0 { usleep(Self.pause) }
      },
      run: { _ in region.protectReadWrite() },
      finish: { _ in region.protectNoAccess() })
    return [
      .timed(
        "window_open_cold", measurements[0],
        baseline: ("the same call warm", measurements[1]),
        note: "one sodium_mprotect_readwrite (1 page) after 10 ms of sleep, as a key after a"
          + " pause; the peer's whole wake-to-echo path is about 21 us")
    ]
  }
}
