import SecretField

/// `keystroke_middle_4096`: one ASCII character typed in the middle of a masked
/// field holding 4,096 ASCII characters (the caret at 2,048), paired with a
/// backspace as `keystroke_append_*` is, so the length stays 4,096.
///
/// An edit in the middle must move the 2,048 bytes after it, and the index of
/// character boundaries after it shifts too. The floor does the same byte work
/// in C: on a raw `sodium_malloc` region of the same pages, inside one
/// `sodium_mprotect_readwrite` / `sodium_mprotect_noaccess` pair, `memmove` the
/// 2,048-byte tail one byte right and store the byte; then in a second pair move
/// it back and zero the byte freed at the end.
///
/// `keystroke_middle_4096_vs_append` sets it beside `keystroke_append_4096`
/// measured in the same run: what being in the middle adds.
struct MiddleKeystrokeBenchmarks: BenchmarkGroup {
  static let length = 4096
  static let caret = 2048

  let names = ["keystroke_middle_4096", "keystroke_middle_4096_vs_append"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let text = BenchmarkText.ascii(count: Self.length)
    var middle = try SecretFieldState.benchmarkField(
      holding: text, limits: KeystrokeBenchmarks.limits)
    middle.select(Self.caret..<Self.caret)
    var end = try SecretFieldState.benchmarkField(
      holding: text, limits: KeystrokeBenchmarks.limits)
    let floor = RawSodiumRegion(size: KeystrokeBenchmarks.floorRegionSize, fill: 0x61)
    floor.protectNoAccess()
    defer { floor.free() }

    let key = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
    key[0] = KeystrokeBenchmarks.typed
    defer { key.deallocate() }
    let keyBytes = UnsafeRawBufferPointer(key)

    func typeAndErase(_ field: inout SecretFieldState, _ iterations: Int) {
      for _ in 0..<iterations {
        do { try field.insert(keyBytes) } catch {
          preconditionFailure("keystroke_middle: the field refused a keystroke: \(error)")
        }
        field.deleteBackward()
      }
      blackhole(field.caret)
    }

    typeAndErase(&middle, 3)
    precondition(
      middle.count == Self.length && middle.caret == Self.caret,
      "keystroke_middle: a keystroke and a backspace moved the caret or changed the length")

    let tailCount = Self.length - Self.caret
    let measurements = sampler.measure(["middle", "end", "floor"]) { variant, iterations in
      switch variant {
      case 0: typeAndErase(&middle, iterations)
      case 1: typeAndErase(&end, iterations)
      default:
        for _ in 0..<iterations {
          floor.moveTailInWriteWindow(
            at: Self.caret, tailCount: tailCount, inserting: KeystrokeBenchmarks.typed)
          floor.moveTailInWriteWindow(at: Self.caret, tailCount: tailCount, inserting: nil)
        }
      }
    }
    return [
      .timed(
        "keystroke_middle_4096", measurements[0],
        baseline: (
          "raw (mprotect_readwrite, memmove 2 KiB tail, mprotect_noaccess) x2",
          measurements[2]
        ),
        note: "insert + deleteBackward at character 2,048 of 4,096 ASCII characters;"
          + " the floor moves the same tail inside two raw protection pairs"),
      .timed(
        "keystroke_middle_4096_vs_append", measurements[0],
        baseline: ("keystroke_append_4096", measurements[1])),
    ]
  }
}
