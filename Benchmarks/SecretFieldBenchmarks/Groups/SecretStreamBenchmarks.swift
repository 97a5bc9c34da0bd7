import CSodium
import SecureMemory

/// `seal_1m` and `open_1m`: a 1 MiB stream of 16 chunks of 64 KiB, sealed with
/// `SecretStream.Sealer` and opened with `SecretStream.Opener`, beside raw
/// `crypto_secretstream_xchacha20poly1305_*` on the same chunks under the same
/// key.
///
/// - `seal_1m`: a new sealer (its state's `SecureBuffer`) and 16 `seal` calls
///   from one 64 KiB `SecureBuffer` into one reused ciphertext array
///   (`seal(_:range:isFinal:into:)`).
///   Baseline: `init_push` into an ordinary state struct, 16 `push` calls from
///   a `sodium_malloc` region into one reused output buffer.
/// - `open_1m`: a new opener and 16 `open` calls appending into a `SecureBuffer`
///   with 1 MiB reserved. Baseline: `init_pull` and 16 `pull` calls into a
///   `sodium_malloc` region of 1 MiB. Each sample is one stream: the plaintext's
///   buffer (or region) is made before the clock starts and freed after it stops.
struct SecretStreamBenchmarks: BenchmarkGroup {
  static let chunkSize = 64 * 1024
  static let chunkCount = 16

  let names = ["seal_1m", "open_1m"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let keyBytes = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    var key = try SecureBuffer(capacity: 32)
    try keyBytes.withUnsafeBytes { try key.append($0) }
    let rawKey = keyBytes.withUnsafeBytes { RawSodiumRegion(copying: $0) }
    defer { rawKey.free() }

    let plainBytes = (0..<Self.chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    var chunk = try SecureBuffer(capacity: Self.chunkSize)
    try plainBytes.withUnsafeBytes { try chunk.append($0) }
    let rawChunk = plainBytes.withUnsafeBytes { RawSodiumRegion(copying: $0) }
    defer { rawChunk.free() }

    let overhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)
    var state = crypto_secretstream_xchacha20poly1305_state()
    var output = [UInt8](repeating: 0, count: Self.chunkSize + overhead)
    var header = [UInt8](repeating: 0, count: SecretStream.headerByteCount)
    let last = Self.chunkCount - 1
    let finalTag = UInt8(crypto_secretstream_xchacha20poly1305_TAG_FINAL)
    let messageTag = UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE)

    var sealed = [UInt8]()
    let (sealSubject, sealBaseline) = sampler.compare(
      { iterations in
        for _ in 0..<iterations {
          var sealer = try! SecretStream.Sealer(key: key)
          for index in 0...last {
            sealer.seal(chunk, isFinal: index == last, into: &sealed)
            blackhole(Int(sealed[0]))
          }
        }
      },
      against: { iterations in
        for _ in 0..<iterations {
          _ = crypto_secretstream_xchacha20poly1305_init_push(
            &state, &header, rawKey.start.assumingMemoryBound(to: UInt8.self))
          for index in 0...last {
            _ = crypto_secretstream_xchacha20poly1305_push(
              &state, &output, nil, rawChunk.start.assumingMemoryBound(to: UInt8.self),
              UInt64(Self.chunkSize), nil, 0, index == last ? finalTag : messageTag)
            blackhole(Int(output[0]))
          }
        }
      })

    // One stream to open, sealed once, and checked by opening it.
    var sealer = try SecretStream.Sealer(key: key)
    let stream = (0...last).map { sealer.seal(chunk, isFinal: $0 == last) }
    let streamHeader = sealer.header
    let holder = PlaintextHolder()
    holder.make(capacity: Self.chunkCount * Self.chunkSize)
    holder.open(stream, key: key, header: streamHeader)
    precondition(
      holder.drop() == Self.chunkCount * Self.chunkSize, "open_1m: the stream did not open")

    var region: RawSodiumRegion?
    let measurements = sampler.measureSingleIterations(
      ["open", "raw"],
      prepare: { variant in
        if variant == 0 {
          holder.make(capacity: Self.chunkCount * Self.chunkSize)
        } else {
          region = RawSodiumRegion(size: Self.chunkCount * Self.chunkSize)
        }
      },
      run: { variant in
        if variant == 0 {
          holder.open(stream, key: key, header: streamHeader)
          return
        }
        let base = region!.start.assumingMemoryBound(to: UInt8.self)
        _ = crypto_secretstream_xchacha20poly1305_init_pull(
          &state, streamHeader, rawKey.start.assumingMemoryBound(to: UInt8.self))
        var tag: UInt8 = 0
        for (index, ciphertext) in stream.enumerated() {
          let status = crypto_secretstream_xchacha20poly1305_pull(
            &state, base + index * Self.chunkSize, nil, &tag, ciphertext,
            UInt64(ciphertext.count), nil, 0)
          precondition(status == 0, "open_1m: raw pull failed")
        }
        blackhole(Int(tag))
      },
      finish: { variant in
        if variant == 0 {
          blackhole(holder.drop())
        } else {
          region?.free()
          region = nil
        }
      })
    return [
      .timed(
        "seal_1m", sealSubject,
        baseline: ("raw init_push + 16 push of 64 KiB into one reused buffer", sealBaseline)),
      .timed(
        "open_1m", measurements[0],
        baseline: (
          "raw init_pull + 16 pull of 64 KiB into a sodium_malloc region", measurements[1]
        ),
        note: "the plaintext's buffer (1 MiB reserved) is made before the clock and freed after"),
    ]
  }
}

/// The plaintext buffer of one `open_1m` sample, made and dropped untimed.
private final class PlaintextHolder {
  private var buffer: SecureBuffer?

  func make(capacity: Int) {
    do { buffer = try SecureBuffer(capacity: capacity) } catch {
      preconditionFailure("open_1m: no buffer: \(error)")
    }
  }

  func open(_ chunks: [[UInt8]], key: borrowing SecureBuffer, header: [UInt8]) {
    do {
      var opener = try SecretStream.Opener(key: key, header: header)
      for chunk in chunks { _ = try opener.open(chunk, into: &buffer!) }
      try opener.finish()
    } catch {
      preconditionFailure("open_1m: \(error)")
    }
  }

  /// Drops the buffer (wiped and freed) and returns how many bytes it held.
  func drop() -> Int {
    guard let dropped = buffer.take() else { preconditionFailure("open_1m: no buffer to drop") }
    return dropped.count
  }
}
