import CSodium
import SecureMemory

/// `derive_key_interactive`: `KeyDerivation.deriveKey(from:)` at interactive
/// limits beside raw `crypto_pwhash` (Argon2id13) with the same salt, limits and
/// password bytes, into a `sodium_malloc` region. Argon2id itself is the floor:
/// the wrapper adds a `SecureBuffer` for the key (about 25 µs), two windows and a
/// stack wipe, against some 60 to 120 ms.
struct KeyDerivationBenchmarks: BenchmarkGroup {
  let names = ["derive_key_interactive"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let password = Array("correct horse battery staple".utf8)
    var buffer = try SecureBuffer(capacity: password.count)
    try password.withUnsafeBytes { try buffer.append($0) }
    let derivation = try KeyDerivation.random(strength: .interactive)

    let raw = RawSodiumRegion(size: password.count)
    password.withUnsafeBytes { raw.start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    defer { raw.free() }
    let key = RawSodiumRegion(size: 32)
    defer { key.free() }
    let salt = derivation.salt

    let (subject, baseline) = sampler.forSlowOperations.compare(
      { iterations in
        for _ in 0..<iterations {
          blackhole(try! derivation.deriveKey(from: buffer).count)
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          let status = crypto_pwhash(
            key.start.assumingMemoryBound(to: UInt8.self), 32,
            raw.start.assumingMemoryBound(to: CChar.self), UInt64(password.count), salt,
            UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), Int(crypto_pwhash_MEMLIMIT_INTERACTIVE),
            crypto_pwhash_ALG_ARGON2ID13)
          precondition(status == 0, "derive_key_interactive: raw crypto_pwhash failed")
          blackhole(Int(key.start.load(as: UInt8.self)))
        }
      })
    return [
      .timed(
        "derive_key_interactive", subject,
        baseline: ("crypto_pwhash (Argon2id13, interactive limits)", baseline))
    ]
  }
}
