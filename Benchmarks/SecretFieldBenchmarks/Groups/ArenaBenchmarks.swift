import SecureMemory

/// `arena_alloc_free_32` and `arena_window_read`: a 32-byte secret in a
/// `SecureArena` slot, created and dropped, and one read window on it, each
/// beside a `SecureBuffer` of its own and raw libsodium, interleaved. The
/// plain names are a sodium arena's; `_secret` is an arena whose slabs are in
/// secret memory (`memfd_secret`, the arena's default), in the same run.
///
/// The arena holds one other live secret throughout, so its slab stays mapped
/// as it would in a server holding many; the figure is the slot's own cost:
/// taking it from the free list, and on drop the canary check and the wipe in a
/// read-write window (two `mprotect` calls).
struct ArenaBenchmarks: BenchmarkGroup {
  let names = [
    "arena_alloc_free_32", "arena_alloc_free_32_vs_alloc_free_64", "arena_window_read",
    "arena_window_read_vs_raw", "arena_alloc_free_32_secret", "arena_window_read_secret",
  ]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let arena = try SecureArena(name: "benchmark", storage: .sodium)
    var resident = try SecureBuffer(capacity: 32, in: arena)
    let contents = [UInt8](repeating: 0x5A, count: 32)
    try contents.withUnsafeBytes { try resident.append($0) }
    _ = try SecureBuffer(capacity: 64)
    let secretArena = try SecureArena(name: "benchmark (secret memory)", storage: .secretMemory)
    var secretResident = try SecureBuffer(capacity: 32, in: secretArena)
    try contents.withUnsafeBytes { try secretResident.append($0) }

    let rawLabel = "sodium_malloc+memset+sodium_free"
    let allocations = sampler.measure(["arena", "SecureBuffer", rawLabel, "arena (secret memory)"])
    {
      variant, iterations in
      switch variant {
      case 3:
        for _ in 0..<iterations {
          let buffer = try! SecureBuffer(capacity: 32, in: secretArena)
          blackhole(buffer.capacity)
        }
      case 0:
        for _ in 0..<iterations {
          let buffer = try! SecureBuffer(capacity: 32, in: arena)
          blackhole(buffer.capacity)
        }
      case 1:
        for _ in 0..<iterations {
          let buffer = try! SecureBuffer(capacity: 64)
          blackhole(buffer.capacity)
        }
      default:
        for _ in 0..<iterations {
          let region = RawSodiumRegion(size: 64)
          blackhole(UnsafeRawPointer(region.start))
          region.free()
        }
      }
    }

    var own = try SecureBuffer(capacity: 32)
    try contents.withUnsafeBytes { try own.append($0) }
    let raw = RawSodiumRegion(size: 32, fill: 0x5A)
    raw.protectNoAccess()
    defer { raw.free() }
    let rawWindowLabel = "sodium_mprotect_readonly+sodium_mprotect_noaccess"
    let windows = sampler.measure(
      ["arena", "SecureBuffer", rawWindowLabel, "arena (secret memory)"]
    ) { variant, iterations in
      switch variant {
      case 3:
        for _ in 0..<iterations { secretResident.withUnsafeBytes { blackhole(Int($0[0])) } }
      case 0:
        for _ in 0..<iterations { resident.withUnsafeBytes { blackhole(Int($0[0])) } }
      case 1:
        for _ in 0..<iterations { own.withUnsafeBytes { blackhole(Int($0[0])) } }
      default:
        for _ in 0..<iterations {
          raw.protectReadOnly()
          blackhole(Int(raw.start.load(as: UInt8.self)))
          raw.protectNoAccess()
        }
      }
    }
    return [
      .timed(
        "arena_alloc_free_32", allocations[0], baseline: (rawLabel, allocations[2]),
        note: "a slot taken from a mapped slab and dropped: no mapping made; the drop's wipe"
          + " opens and closes the slot's page (two mprotect calls)"),
      .timed(
        "arena_alloc_free_32_vs_alloc_free_64", allocations[0],
        baseline: ("SecureBuffer(capacity: 64)", allocations[1])),
      .timed(
        "arena_window_read", windows[0], baseline: ("window_read (SecureBuffer)", windows[1]),
        note: "one page of the slab opened and closed: two mprotect calls on that page's own"
          + " mapping, as on a buffer's; the slab's lock instead of the buffer's"),
      .timed("arena_window_read_vs_raw", windows[0], baseline: (rawWindowLabel, windows[2])),
      .timed(
        "arena_alloc_free_32_secret", allocations[3], baseline: (rawLabel, allocations[2]),
        note: "the same in a secret-memory slab: the wipe's two mprotect calls on a page of a"
          + " memfd_secret mapping"),
      .timed(
        "arena_window_read_secret", windows[3],
        baseline: ("window_read (SecureBuffer)", windows[1]),
        note: "one page of a secret-memory slab opened and closed"),
    ]
  }
}
