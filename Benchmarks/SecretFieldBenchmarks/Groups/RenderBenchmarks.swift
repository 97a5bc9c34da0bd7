import SecretField

/// `render_masked_256`: `render(at:)` of a masked field holding 256 characters,
/// the display line a front end draws after each keystroke. Rendering reads no
/// secret byte and changes no protection: the figure is Swift work only, one
/// cell per character.
///
/// Baseline: what the naive `String` model does for its display, the mask
/// rebuilt as `String(repeating: "•", count: 256)`.
struct RenderBenchmarks: BenchmarkGroup {
  static let length = 256

  let names = ["render_masked_256"]

  func run(with sampler: Sampler) throws -> [BenchmarkResult] {
    let field = try SecretFieldState.benchmarkField(
      holding: BenchmarkText.ascii(count: Self.length), limits: .default)
    let now = ContinuousClock.now
    let line = field.render(at: now)
    precondition(
      line.cells.count == Self.length && !line.isRevealed
        && line.cells.allSatisfy { !$0.isRevealed },
      "render_masked_256: the line is not 256 masked cells")

    let glyph = NaiveStringPasswordModel.maskGlyph
    let (subject, baseline) = sampler.compare(
      { iterations in
        for _ in 0..<iterations { blackhole(field.render(at: now).cells.count) }
      },
      against: { iterations in
        for _ in 0..<iterations {
          blackhole(String(repeating: glyph, count: Self.length).utf8.count)
        }
      })
    return [
      .timed(
        "render_masked_256", subject,
        baseline: ("naive mask: String(repeating: \"•\", count: 256)", baseline),
        note: "the DisplayLine of 256 masked cells, caret, selection and hints; no secret read")
    ]
  }
}
