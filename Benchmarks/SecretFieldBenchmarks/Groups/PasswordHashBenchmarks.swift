import CSodium
import SecureMemory

/// `argon2id_interactive`: `PasswordHash(hashing:strength: .interactive)` beside
/// raw `crypto_pwhash_str_alg` with the same limits on the same bytes. Argon2id
/// itself is the floor: the wrapper adds a read window and a stack wipe, so the
/// ratio should be 1.00.
struct PasswordHashBenchmarks: BenchmarkGroup {
  let names = ["argon2id_interactive"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let password = Array("correct horse battery staple".utf8)
    var buffer = try SecureBuffer(capacity: password.count)
    try password.withUnsafeBytes { try buffer.append($0) }

    let raw = RawSodiumRegion(size: password.count)
    password.withUnsafeBytes { raw.start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    defer { raw.free() }
    var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))

    let (subject, baseline) = sampler.forSlowOperations.compare(
      { iterations in
        for _ in 0..<iterations {
          blackhole(try! PasswordHash(hashing: buffer, strength: .interactive).string.utf8.count)
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          let status = crypto_pwhash_str_alg(
            &output, raw.start.assumingMemoryBound(to: CChar.self), UInt64(password.count),
            UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), Int(crypto_pwhash_MEMLIMIT_INTERACTIVE),
            crypto_pwhash_ALG_ARGON2ID13)
          precondition(status == 0, "argon2id_interactive: raw crypto_pwhash_str_alg failed")
          blackhole(Int(output[0]))
        }
      })
    return [
      .timed(
        "argon2id_interactive", subject,
        baseline: ("crypto_pwhash_str_alg (Argon2id, interactive limits)", baseline))
    ]
  }
}
