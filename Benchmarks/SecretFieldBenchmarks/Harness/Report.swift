import Glibc

/// Writes results as a table for people and as JSON for tools.
enum Report {
  /// A fixed-width table: name, median, p99, baseline, its median, ratio.
  static func table(_ results: [BenchmarkResult]) -> String {
    let header = [
      "benchmark", "median", "p99", "baseline", "baseline median", "ratio", "samples x batch",
    ]
    let rows = results.map { result -> [String] in
      [
        result.name,
        format(result.value.median, unit: result.unit),
        format(result.value.p99, unit: result.unit),
        result.baseline?.label ?? "",
        result.baseline.map { format($0.median, unit: result.unit) } ?? "",
        result.ratio.map { fixed($0, decimals: 3) + "x" } ?? "",
        result.iterationsPerSample.map { "\(result.value.sampleCount)x\($0)" } ?? "",
      ]
    }
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    let rightAligned: Set = [1, 2, 4, 5, 6]
    func line(_ cells: [String]) -> String {
      cells.indices.map { column in
        let padding = String(repeating: " ", count: widths[column] - cells[column].count)
        return rightAligned.contains(column) ? padding + cells[column] : cells[column] + padding
      }.joined(separator: "  ")
    }
    let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
    let notes = results.compactMap { result in result.note.map { "  \(result.name): \($0)" } }
    return ([line(header), rule] + rows.map(line) + (notes.isEmpty ? [] : [""] + notes))
      .joined(separator: "\n") + "\n"
  }

  /// `{"benchmarks": [{"name", "unit", "median", "p99", "baseline",
  /// "baseline_median", "ratio"}]}`, the baseline fields only where there is one.
  static func json(_ results: [BenchmarkResult]) -> String {
    let objects = results.map { result -> String in
      var fields = [
        ("name", quoted(result.name)), ("unit", quoted(result.unit)),
        ("median", number(result.value.median)), ("p99", number(result.value.p99)),
      ]
      if let baseline = result.baseline, let ratio = result.ratio {
        fields += [
          ("baseline", quoted(baseline.label)), ("baseline_median", number(baseline.median)),
          ("ratio", number(ratio, decimals: 4)),
        ]
      }
      return "    {" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
    return "{\"benchmarks\": [\n" + objects.joined(separator: ",\n") + "\n]}\n"
  }

  /// Writes `text` to the file at `path`, replacing it.
  ///
  /// - Throws: ``ReportError`` naming the path and the reason.
  static func write(_ text: String, to path: String) throws(ReportError) {
    guard let file = fopen(path, "w") else { throw ReportError(path: path, errno: errno) }
    let written = fputs(text, file)
    let closed = fclose(file)
    if written < 0 || closed != 0 { throw ReportError(path: path, errno: errno) }
  }

  /// `1234.5 ns` as `1.23 µs`, and so on; counts stay counts, a fraction below
  /// one (mappings per secret in an arena) with four decimals.
  static func format(_ value: Double, unit: String) -> String {
    guard unit == "ns" else {
      let decimals = value.rounded() == value ? 0 : abs(value) < 1 ? 4 : 1
      return fixed(value, decimals: decimals) + " " + unit
    }
    switch value {
    case ..<1_000: return fixed(value, decimals: 1) + " ns"
    case ..<1_000_000: return fixed(value / 1_000, decimals: 2) + " µs"
    default: return fixed(value / 1_000_000, decimals: 2) + " ms"
    }
  }

  /// `value` with exactly `decimals` digits after the point.
  static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    let fraction = String(scaled % Int64(scale))
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(whole)" }
    return "\(sign)\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }

  private static func number(_ value: Double, decimals: Int? = nil) -> String {
    precondition(value.isFinite, "Report: a figure is not finite: \(value)")
    return fixed(value, decimals: decimals ?? (value != 0 && abs(value) < 1 ? 4 : 1))
  }

  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20: out += "\\u" + hex4(scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}

/// The JSON file could not be written.
struct ReportError: Error, CustomStringConvertible {
  /// The path that was to be written.
  let path: String
  /// The `errno` from `fopen`, `fputs` or `fclose`.
  let errno: Int32

  var description: String {
    "cannot write the results to \(path): \(String(cString: strerror(errno)))"
  }
}
