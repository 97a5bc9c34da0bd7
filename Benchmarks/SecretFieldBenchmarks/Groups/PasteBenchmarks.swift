import SecretField
import SecureMemory

/// `paste_64k` and `paste_1m`: one paste of 64 KiB and of 1 MiB of mixed text
/// (ASCII, accented Latin, Greek, Cyrillic, CJK, Hangul jamo, emoji with ZWJ,
/// flags, stacked combining marks; see ``BenchmarkText/mixedPeriod``) into an
/// empty masked field whose limits let it through.
///
/// Each sample is one paste into a field made for it: the field is created
/// (with its default 8 KiB reservation) before the clock starts and dropped
/// after it stops, so the figure is the `paste` call alone: validation,
/// grapheme breaking, the growth of the secure buffer to the pasted size (a new
/// `sodium_malloc`, verified, and the old one freed), the copy and the index.
///
/// Baselines, same run, same bytes:
/// - the floor: `sodium_malloc(n)` + `memcpy` + `sodium_mprotect_noaccess`, the
///   region freed untimed: storing the bytes in a guarded region, without
///   looking at them;
/// - `paste_*_vs_stdlib`: `String(decoding:as:).count`, the standard library's
///   own validation and grapheme breaking of the same bytes (into an ordinary
///   `String`): what finding the character boundaries costs at best.
///
/// `paste_1m_per_byte` against `paste_64k_per_byte` (1.00 is linear) answers
/// whether a paste grows faster than its size.
struct PasteBenchmarks: BenchmarkGroup {
  static let sizes = [(name: "64k", bytes: 64 * 1024), (name: "1m", bytes: 1024 * 1024)]
  static let limits = FieldLimits(maxCharacters: 2 * 1024 * 1024, maxBytes: 2 * 1024 * 1024)

  var names: [String] {
    Self.sizes.map { "paste_\($0.name)" } + Self.sizes.map { "paste_\($0.name)_per_byte" }
      + Self.sizes.map { "paste_\($0.name)_vs_stdlib" }
  }

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let texts = Self.sizes.map { BenchmarkText.mixed(byteCount: $0.bytes) }
    let characterCounts = texts.map { String(decoding: $0, as: UTF8.self).count }

    // The field's character count must match the standard library's, or the
    // figure measures a broken paste.
    for (text, expected) in zip(texts, characterCounts) {
      let field = try SecretFieldState.benchmarkField(holding: text, limits: Self.limits)
      precondition(
        field.count == expected && field.utf8Count == text.count,
        "paste: the field found \(field.count) characters where the standard library finds"
          + " \(expected)")
    }
    // Fail here, with the library's message, rather than inside the timing loop.
    _ = try SecretFieldState(limits: Self.limits, storage: .sodium)

    // Variants, by size: 0 field, 1 floor, 2 stdlib; index = kind * 2 + size.
    let fields: [SecretFieldHolder] = texts.map { _ in SecretFieldHolder() }
    var regions: [RawSodiumRegion?] = texts.map { _ in nil }
    let labels = ["field", "floor", "stdlib"].flatMap { kind in
      Self.sizes.map { "\(kind) \($0.name)" }
    }
    let measurements = sampler.measureSingleIterations(
      labels,
      prepare: { variant in
        if variant < 2 { fields[variant].make(limits: Self.limits) }
      },
      run: { variant in
        let size = variant % 2
        texts[size].withUnsafeBytes { bytes in
          switch variant / 2 {
          case 0: fields[size].paste(bytes)
          case 1:
            let region = RawSodiumRegion(copying: bytes)
            region.protectNoAccess()
            regions[size] = region
          default: blackhole(String(decoding: bytes, as: UTF8.self).count)
          }
        }
      },
      finish: { variant in
        let size = variant % 2
        switch variant / 2 {
        case 0: fields[size].drop()
        case 1:
          regions[size]?.free()
          regions[size] = nil
        default: break
        }
      })

    var results: [BenchmarkResult] = []
    for (position, size) in Self.sizes.enumerated() {
      results.append(
        .timed(
          "paste_\(size.name)", measurements[position],
          baseline: ("raw sodium_malloc(n)+memcpy+mprotect_noaccess", measurements[2 + position]),
          note: "one paste of \(size.bytes) bytes (\(characterCounts[position]) characters) of"
            + " mixed text into an empty field, growth included; creating and dropping the"
            + " field are not timed"))
    }
    let perByte = Self.sizes.indices.map { position in
      measurements[position].nanosecondsPerIteration.divided(by: Double(Self.sizes[position].bytes))
    }
    results.append(
      BenchmarkResult(
        name: "paste_64k_per_byte", unit: "ns/byte", value: perByte[0], baseline: nil,
        iterationsPerSample: measurements[0].iterationsPerSample))
    results.append(
      BenchmarkResult(
        name: "paste_1m_per_byte", unit: "ns/byte", value: perByte[1],
        baseline: .init(label: "paste_64k_per_byte", median: perByte[0].median),
        iterationsPerSample: measurements[1].iterationsPerSample,
        note: "linear in the size when near 1.00 (target: within 1.5x)"))
    for (position, size) in Self.sizes.enumerated() {
      results.append(
        .timed(
          "paste_\(size.name)_vs_stdlib", measurements[position],
          baseline: ("String(decoding:as:).count", measurements[4 + position])))
    }
    return results
  }
}

/// A field that exists only between a sample's `prepare` and `finish`.
///
/// `SecretFieldState` is `~Copyable`, so it cannot sit in an array; this holds
/// one in an optional that a sample fills and empties.
private final class SecretFieldHolder {
  private var field: SecretFieldState?

  func make(limits: FieldLimits) {
    do { field = try SecretFieldState(limits: limits, storage: .sodium) } catch {
      preconditionFailure("paste: no field: \(error)")
    }
  }

  func paste(_ bytes: UnsafeRawBufferPointer) {
    do { try field!.paste(bytes) } catch {
      preconditionFailure("paste: the field refused the paste: \(error)")
    }
  }

  /// Drops the field (its buffer is wiped and freed), after feeding its count to
  /// the blackhole.
  func drop() {
    guard let dropped = field.take() else { preconditionFailure("paste: no field to drop") }
    blackhole(dropped.count)
  }
}
