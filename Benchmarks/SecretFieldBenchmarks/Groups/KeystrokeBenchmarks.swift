import SecretField
import SecureMemory

/// `keystroke_append_16`, `_256`, `_4096`: one ASCII character typed at the end
/// of a masked `SecretFieldState` already holding 16, 256 or 4,096 ASCII
/// characters, beside the floor of a protected edit and beside the naive
/// `String` model.
///
/// Work shape: each iteration is a pair, the keystroke (`insert`) and a
/// backspace (`deleteBackward`), so the length is the same at every iteration
/// and no reset has to hide inside or outside the timed region. The figure is
/// the pair; every baseline does the same pair:
/// - the floor: on a raw `sodium_malloc` region with as many data pages as the
///   field's buffer, `sodium_mprotect_readwrite` + a one-byte store +
///   `sodium_mprotect_noaccess`, twice (the typed byte, then the zero that wipes
///   it): two protection pairs, what any protected edit must pay;
/// - the naive model (`NaiveStringPasswordModel`): the host reports the masked
///   text with the character added, then with one character removed, and the
///   model rebuilds password and mask from it each time.
///
/// All three fields have the same limits (8,192 characters, the default 8 KiB),
/// so the same 8 KiB reservation (three data pages): only the length differs.
///
/// Extra figures: `keystroke_append_N_vs_naive` (the same measurement against
/// the naive model), `keystroke_append_4096_vs_16` (the 4,096 figure against
/// the 16 one, same run: 1.00 means flat in length), and
/// `keystroke_append_N_sealed`: the same pair on a field in sealed storage,
/// the field's default, against the same floor (each edit decrypts and seals
/// the whole text: no system call, O(length)). The plain names are a field in
/// sodium memory, as they have always been measured.
struct KeystrokeBenchmarks: BenchmarkGroup {
  static let lengths = [16, 256, 4096]
  static let limits = FieldLimits(maxCharacters: 8 * 1024)
  /// What the floor's region asks of `sodium_malloc`: as many data pages as
  /// the field's reservation (`min(limits.maxBytes, 8 KiB)` plus the canary).
  static let floorRegionSize = 8 * 1024
  static let typed = UInt8(ascii: "x")

  var names: [String] {
    Self.lengths.map { "keystroke_append_\($0)" }
      + Self.lengths.map { "keystroke_append_\($0)_vs_naive" } + ["keystroke_append_4096_vs_16"]
      + Self.lengths.map { "keystroke_append_\($0)_sealed" }
  }

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let texts = Self.lengths.map { BenchmarkText.ascii(count: $0) }
    var field16 = try SecretFieldState.benchmarkField(holding: texts[0], limits: Self.limits)
    var field256 = try SecretFieldState.benchmarkField(holding: texts[1], limits: Self.limits)
    var field4096 = try SecretFieldState.benchmarkField(holding: texts[2], limits: Self.limits)
    var sealed16 = try SecretFieldState.benchmarkField(
      holding: texts[0], limits: Self.limits, storage: .sealed)
    var sealed256 = try SecretFieldState.benchmarkField(
      holding: texts[1], limits: Self.limits, storage: .sealed)
    var sealed4096 = try SecretFieldState.benchmarkField(
      holding: texts[2], limits: Self.limits, storage: .sealed)
    var naives = texts.map {
      NaiveStringPasswordModel(password: String(decoding: $0, as: UTF8.self))
    }
    let floor = RawSodiumRegion(size: Self.floorRegionSize, fill: 0x61)
    floor.protectNoAccess()
    defer { floor.free() }

    let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
    key[0] = Self.typed
    defer { key.deallocate() }
    let keyBytes = UnsafeRawBufferPointer(key)

    /// One keystroke and one backspace at the end of `field`.
    func typeAndErase(_ field: inout SecretFieldState, _ iterations: Int) {
      for _ in 0..<iterations {
        do { try field.insert(keyBytes) } catch {
          preconditionFailure("keystroke_append: the field refused a keystroke: \(error)")
        }
        field.deleteBackward()
      }
      blackhole(field.count)
    }

    // Check the work shape once: the pair leaves each field as it found it.
    typeAndErase(&field16, 3)
    typeAndErase(&field256, 3)
    typeAndErase(&field4096, 3)
    precondition(
      field16.count == 16 && field256.count == 256 && field4096.count == 4096
        && field4096.caret == 4096,
      "keystroke_append: a keystroke and a backspace changed the field's length")

    let typedCharacter = Character(Unicode.Scalar(Self.typed))
    let floorOffset = Self.floorRegionSize / 2
    let labels =
      Self.lengths.map { "field \($0)" } + Self.lengths.map { "naive \($0)" } + ["floor"]
      + Self.lengths.map { "sealed field \($0)" }
    let measurements = sampler.measure(labels) { variant, iterations in
      switch variant {
      case 7: typeAndErase(&sealed16, iterations)
      case 8: typeAndErase(&sealed256, iterations)
      case 9: typeAndErase(&sealed4096, iterations)
      case 0: typeAndErase(&field16, iterations)
      case 1: typeAndErase(&field256, iterations)
      case 2: typeAndErase(&field4096, iterations)
      case 3, 4, 5:
        for _ in 0..<iterations {
          naives[variant - 3].fieldDidChange(
            to: naives[variant - 3].displayedText(afterTyping: typedCharacter))
          naives[variant - 3].fieldDidChange(
            to: naives[variant - 3].displayedTextAfterDeletingBackward())
        }
        blackhole(naives[variant - 3].password.utf8.count)
      default:
        for _ in 0..<iterations {
          floor.storeInWriteWindow(Self.typed, at: floorOffset)
          floor.storeInWriteWindow(0, at: floorOffset)
        }
      }
    }
    precondition(
      naives.map(\.password.count) == Self.lengths,
      "keystroke_append: the naive model changed length")

    let floorLabel = "raw (mprotect_readwrite, 1-byte store, mprotect_noaccess) x2"
    let floorBaseline = (label: floorLabel, measurement: measurements[6])
    var results: [BenchmarkResult] = []
    for (position, length) in Self.lengths.enumerated() {
      results.append(
        .timed(
          "keystroke_append_\(length)", measurements[position], baseline: floorBaseline,
          note: position == 0
            ? "insert + deleteBackward at the end of N ASCII characters (length constant);"
              + " floor: two protection pairs on a raw sodium_malloc(\(Self.floorRegionSize))"
            : nil))
    }
    for (position, length) in Self.lengths.enumerated() {
      results.append(
        .timed(
          "keystroke_append_\(length)_vs_naive", measurements[position],
          baseline: ("naive String model, type + backspace", measurements[3 + position]),
          note: position == 0
            ? "the field against NaiveStringPasswordModel (plain String, O(length) per"
              + " keystroke, unwiped copies): the naive model is a cost baseline, not a safe one"
            : nil))
    }
    results.append(
      .timed(
        "keystroke_append_4096_vs_16", measurements[2],
        baseline: ("keystroke_append_16", measurements[0]),
        note: "flat in length when near 1.00 (target: within 1.5x)"))
    for (position, length) in Self.lengths.enumerated() {
      results.append(
        .timed(
          "keystroke_append_\(length)_sealed", measurements[7 + position],
          baseline: floorBaseline,
          note: position == 0
            ? "the same pair on a sealed field (the default): a decryption and an encryption"
              + " of the text per edit, no system call"
            : nil))
    }
    return results
  }
}
