import CSodium
import SecureMemory

/// Sealed storage (`SecureStorage.sealed`) against what it is built on and
/// against guarded storage, interleaved in one run:
///
/// - `sealed_open_32`: a read window on a sealed 32-byte buffer (decrypt into
///   the thread's scratch, lend, wipe), against a raw
///   `crypto_aead_xchacha20poly1305_ietf_decrypt_detached` of 32 bytes into an
///   ordinary buffer: the floor, with no scratch, no wipe and no key lookup.
/// - `sealed_edit_32`: a one-byte `withUnsafeMutableBytes` on the same
///   buffer (decrypt, write, seal under a new nonce), against the raw decrypt
///   and encrypt of 32 bytes.
/// - `arena_alloc_free_32_sealed`: a 32-byte secret made in a sealed arena and
///   dropped, against `sodium_malloc`+`memset`+`sodium_free` as
///   `arena_alloc_free_32` is.
/// - `sealed_bytes_per_secret`, `sealed_mappings_per_secret`: 100,000 live
///   32-byte secrets in a sealed arena, locked bytes (`VmLck`) and mappings
///   per secret, against a guarded arena's in the same run.
struct SealedBenchmarks: BenchmarkGroup {
  let names = [
    "sealed_open_32", "sealed_edit_32", "arena_alloc_free_32_sealed", "sealed_bytes_per_secret",
    "sealed_mappings_per_secret",
  ]

  static let secretCount = 100_000

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let contents = [UInt8](repeating: 0x5A, count: 32)
    var buffer = try SecureBuffer(capacity: 32, storage: .sealed)
    try contents.withUnsafeBytes { try buffer.append($0) }
    buffer.withUnsafeBytes { blackhole(Int($0[31])) }

    // The raw floor: key and nonce in ordinary memory, one sealed message.
    let keyCount = crypto_aead_xchacha20poly1305_ietf_keybytes()
    var key = [UInt8](repeating: 0, count: keyCount)
    var nonce = [UInt8](repeating: 0, count: crypto_aead_xchacha20poly1305_ietf_npubbytes())
    randombytes_buf(&key, keyCount)
    randombytes_buf(&nonce, nonce.count)
    var ciphertext = [UInt8](repeating: 0, count: 32)
    var tag = [UInt8](repeating: 0, count: crypto_aead_xchacha20poly1305_ietf_abytes())
    var plaintext = contents
    _ = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
      &ciphertext, &tag, nil, plaintext, 32, nil, 0, nil, nonce, key)

    let opens = sampler.measure(["sealed", "raw decrypt", "sealed edit", "raw decrypt+encrypt"]) {
      variant, iterations in
      switch variant {
      case 0:
        for _ in 0..<iterations { buffer.withUnsafeBytes { blackhole(Int($0[31])) } }
      case 1:
        for _ in 0..<iterations {
          blackhole(
            Int(
              crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
                &plaintext, nil, ciphertext, 32, tag, nil, 0, nonce, key)))
        }
      case 2:
        for _ in 0..<iterations { buffer.withUnsafeMutableBytes { $0[0] &+= 1 } }
      default:
        for _ in 0..<iterations {
          _ = crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
            &plaintext, nil, ciphertext, 32, tag, nil, 0, nonce, key)
          plaintext[0] &+= 1
          blackhole(
            Int(
              crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                &ciphertext, &tag, nil, plaintext, 32, nil, 0, nil, nonce, key)))
        }
      }
    }

    let arena = try SecureArena(name: "benchmark (sealed)", storage: .sealed)
    var resident = try SecureBuffer(capacity: 32, in: arena)
    try contents.withUnsafeBytes { try resident.append($0) }
    let rawLabel = "sodium_malloc+memset+sodium_free"
    let allocations = sampler.measure(["sealed arena", rawLabel]) { variant, iterations in
      if variant == 0 {
        for _ in 0..<iterations {
          let made = try! SecureBuffer(capacity: 32, in: arena)
          blackhole(made.capacity)
        }
      } else {
        for _ in 0..<iterations {
          let region = RawSodiumRegion(size: 64)
          blackhole(UnsafeRawPointer(region.start))
          region.free()
        }
      }
    }
    withExtendedLifetime(resident) {}

    let sealed = try SecureArena(name: "footprint (sealed)", storage: .sealed)
    let sealedFootprint = try Footprint.measure(count: Self.secretCount) {
      var made = try SecureBuffer(capacity: 32, in: sealed)
      try contents.withUnsafeBytes { try made.append($0) }
      return made
    }
    let guarded = try SecureArena(name: "footprint (guarded)", storage: .sodium)
    let guardedFootprint = try Footprint.measure(count: Self.secretCount) {
      var made = try SecureBuffer(capacity: 32, in: guarded)
      try contents.withUnsafeBytes { try made.append($0) }
      return made
    }
    let guardedLabel = "a sodium arena's, \(Self.secretCount) live"
    return [
      .timed(
        "sealed_open_32", opens[0],
        baseline: ("crypto_aead_xchacha20poly1305_ietf_decrypt_detached, 32 bytes", opens[1]),
        note: "a read window on a sealed 32-byte buffer: the key looked up, a scratch slot"
          + " taken, the decryption, the slot wiped; no system call"),
      .timed(
        "sealed_edit_32", opens[2], baseline: ("raw decrypt and encrypt, 32 bytes", opens[3]),
        note: "a write window: decrypt, a one-byte change, seal under a new nonce, wipe"),
      .timed(
        "arena_alloc_free_32_sealed", allocations[0], baseline: (rawLabel, allocations[1]),
        note: "a slot of a sealed arena taken and dropped: no system call, the drop wipes 56"
          + " bytes of ciphertext, tag and counter"),
      BenchmarkResult(
        name: "sealed_bytes_per_secret", unit: "bytes",
        value: Summary(single: sealedFootprint.lockedBytes),
        baseline: .init(label: guardedLabel, median: guardedFootprint.lockedBytes),
        iterationsPerSample: nil,
        note: "\(Self.secretCount) live 32-byte secrets in one sealed arena: (after - before)"
          + " / count of VmLck; ciphertext, tag and nonce counter, the free index inside free"
          + " slots"),
      BenchmarkResult(
        name: "sealed_mappings_per_secret", unit: "mappings",
        value: Summary(single: sealedFootprint.mappings),
        baseline: .init(label: guardedLabel, median: guardedFootprint.mappings),
        iterationsPerSample: nil,
        note: "the same, lines of /proc/self/maps: slabs of a page doubling to 1 MiB"),
    ]
  }
}

/// Locked bytes and mappings per secret, from one pass of `count` live ones.
struct Footprint {
  var lockedBytes: Double
  var mappings: Double

  /// Makes `count` buffers with `make`, reads the process's locked bytes and
  /// mappings while they are alive, drops them, and returns the difference
  /// per buffer.
  static func measure(
    count: Int, make: () throws -> SecureBuffer
  ) throws -> Footprint {
    let before = (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    let buffers = UnsafeMutablePointer<SecureBuffer>.allocate(capacity: count)
    var made = 0
    defer {
      buffers.deinitialize(count: made)
      buffers.deallocate()
    }
    for index in 0..<count {
      (buffers + index).initialize(to: try make())
      made += 1
    }
    let during = (try ProcessMemory.lockedBytes(), try ProcessMemory.mappingCount())
    return Footprint(
      lockedBytes: Double(during.0 - before.0) / Double(count),
      mappings: Double(during.1 - before.1) / Double(count))
  }
}
