public import Testing

/// The scans of one residue scenario, taken at its named moments and checked
/// together at its end, with the control that shows they can find a copy.
///
/// A scan records its report and the count expected; nothing is checked (and
/// no message formatted) until `check()`, so the checks allocate nothing
/// between two scans of the scenario. Use it in an exit-test child, where no
/// parallel test shares the memory.
public struct ResidueScans {
  private struct Taken {
    let moment: String
    let markerIndex: Int?
    let report: ResidueScanner.Report
    let expected: ClosedRange<Int>
  }

  private var taken: [Taken] = []

  /// No scans yet; room for a scenario's usual number, so that recording one
  /// does not reallocate between scans.
  public init() {
    taken.reserveCapacity(16)
  }

  /// Scans now for `marker` and expects exactly `copies` of it, naming the
  /// moment (`"key after release"`) for the failure message.
  public mutating func expect(
    _ copies: Int, of marker: Marker, _ moment: String
  ) {
    record(marker, moment, nil, expected: copies...copies)
  }

  /// Scans now for each of `markers` and expects `copies[i]` of the i-th.
  public mutating func expect(
    _ copies: [Int], of markers: [Marker], _ moment: String
  ) {
    for (index, marker) in markers.enumerated() {
      record(marker, moment, index, expected: copies[index]...copies[index])
    }
  }

  /// The control, in the same process after the same work: the plain bytes
  /// of each of `markers`, planted in ordinary arrays, are found by the same
  /// scans (at least once each, or exactly `copies` when given).
  public mutating func expectControlFinds(_ markers: Marker..., copies: Int? = nil) {
    let planted = markers.map { $0.plainBytesForControl() }
    for (index, marker) in markers.enumerated() {
      let expected = copies.map { $0...$0 } ?? 1...Int.max
      record(marker, "control, planted in an array", index, expected: expected)
    }
    withExtendedLifetime(planted) {}
  }

  /// Checks every scan taken, in order.
  public func check(sourceLocation: SourceLocation = #_sourceLocation) {
    for scan in taken {
      let marker = scan.markerIndex.map { " (marker \($0))" } ?? ""
      #expect(
        scan.expected.contains(scan.report.copies), "\(scan.moment)\(marker): \(scan.report)",
        sourceLocation: sourceLocation)
    }
  }

  private mutating func record(
    _ marker: Marker, _ moment: String, _ markerIndex: Int?, expected: ClosedRange<Int>
  ) {
    let report = try! ResidueScanner().scan(for: marker)
    taken.append(
      Taken(moment: moment, markerIndex: markerIndex, report: report, expected: expected))
  }
}
