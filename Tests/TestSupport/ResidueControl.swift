public import SecureMemory
public import Testing

/// The control every residue suite runs beside its scans, so that a scan
/// that finds nothing is shown able to find something: a marker planted in
/// an ordinary array is found, where none was before.
public enum ResidueControl {
  /// Plants `marker`'s plain bytes in an ordinary array and expects the
  /// scanner to find no copy before and at least one after. Call it in an
  /// exit-test child, where no parallel test shares the memory.
  public static func expectPlantedMarkerFound(
    _ marker: Marker = Marker(count: 32), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = try! ResidueScanner().scan(for: marker)
    let planted = marker.plainBytesForControl()
    let after = try! ResidueScanner().scan(for: marker)
    withExtendedLifetime(planted) {}
    #expect(before.copies == 0, "\(before)", sourceLocation: sourceLocation)
    #expect(after.copies >= 1, "\(after)", sourceLocation: sourceLocation)
  }
}

extension Marker {
  /// A secure buffer of `capacity` (at least the marker's count) that holds
  /// the marker's plain bytes, unmasked in place: the one copy the code
  /// under test is given.
  public func unmaskedInSecureBuffer(capacity: Int = 64) -> SecureBuffer {
    var buffer = try! SecureBuffer(capacity: Swift.max(count, capacity))
    masked.withUnsafeBytes { try! buffer.append($0) }
    buffer.withUnsafeMutableBytes { unmask(in: $0) }
    return buffer
  }
}
