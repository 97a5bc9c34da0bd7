@_spi(Testing) import SecretFieldTerminal
import SecureMemory
import TestSupport
import Testing

/// Feeds a marker through the decoder, built in its secure input from the
/// masked form, so that every copy a scan finds is one the decoder made.
@Suite("KeyDecoder leaves no copy of what was typed")
struct KeyDecoderResidueTests {
  /// Feeds a sodium-backed decoder what `feed` appends to its input, then
  /// decodes the one text event and the call after it, scanning for `marker`
  /// as fed (`copiesFed`: whether the input holds it as typed), while the
  /// payload is lent (one copy) and after the next call (none). Returns the
  /// payload's length while lent.
  static func decodeText(
    scanning marker: Marker, copiesFed: Int, feed: (inout SecureBuffer) -> Void
  ) -> Int {
    var decoder = try! KeyDecoder(configuration: .sodium)
    decoder.receive(feed)
    var scans = ResidueScans()
    scans.expect(copiesFed, of: marker, "as fed")
    #expect(try! decoder.next(at: .now) == .event(.text))
    scans.expect(1, of: marker, "in the payload while lent")
    let count = decoder.payloadCount
    #expect(try! decoder.next(at: .now) == .needsInput)
    scans.expect(0, of: marker, "after the next call")
    scans.check()
    return count
  }

  @Test("control: a marker planted in an ordinary array is found")
  func control() async {
    await #expect(processExitsWith: .success) {
      ResidueControl.expectPlantedMarkerFound(Marker())
    }
  }

  @Test("typed text: one copy in the payload while lent, none after the next call")
  func typedText() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      let count = KeyDecoderResidueTests.decodeText(scanning: marker, copiesFed: 1) { input in
        marker.masked.withUnsafeBytes { try! input.append($0) }
        input.withUnsafeMutableBytes { marker.unmask(in: $0) }
      }
      #expect(count == marker.count)
    }
  }

  @Test("kitty protocol text: decoded from code points into the payload only")
  func kittyText() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker()
      let count = KeyDecoderResidueTests.decodeText(scanning: marker, copiesFed: 0) { input in
        let prefix: [UInt8] = Array("\u{1B}[97;1;".utf8)
        prefix.withUnsafeBytes { try! input.append($0) }
        for index in 0..<marker.count {
          // One code point's digits at a time, written straight into the input.
          let digits = decimalDigits(of: marker.masked[index] ^ marker.key[index])
          let separator = index + 1 < marker.count ? 1 : 0
          try! input.append(count: digits.count + separator) { spare in
            for (offset, digit) in digits.enumerated() { spare[offset] = digit }
            if separator == 1 { spare[digits.count] = UInt8(ascii: ":") }
          }
        }
        try! input.append(count: 1) { $0[0] = UInt8(ascii: "u") }
      }
      #expect(count == marker.count)
    }
  }

  @Test("a paste over several reads: one copy while lent, none after")
  func paste() async {
    await #expect(processExitsWith: .success) {
      let marker = Marker(count: 32)
      var decoder = try! KeyDecoder(configuration: .sodium)
      let start: [UInt8] = Array("\u{1B}[200~".utf8)
      let end: [UInt8] = Array("\u{1B}[201~".utf8)
      // The marker arrives in two reads, each unmasked where it lands.
      decoder.receive { input in
        start.withUnsafeBytes { try! input.append($0) }
        marker.masked[..<10].withUnsafeBytes { try! input.append($0) }
        input.withUnsafeMutableBytes { bytes in
          let key = Marker.Slice(marker, 0..<10)
          key.unmask(in: UnsafeMutableRawBufferPointer(rebasing: bytes[start.count...]))
        }
      }
      #expect(try! decoder.next(at: .now) == .needsInput)
      decoder.receive { input in
        let offset = input.count
        marker.masked[10...].withUnsafeBytes { try! input.append($0) }
        input.withUnsafeMutableBytes { bytes in
          let key = Marker.Slice(marker, 10..<marker.count)
          key.unmask(in: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
        }
        end.withUnsafeBytes { try! input.append($0) }
      }
      #expect(try! decoder.next(at: .now) == .event(.paste))
      let lent = try! ResidueScanner().scan(for: marker)
      #expect(try! decoder.next(at: .now) == .needsInput)
      let after = try! ResidueScanner().scan(for: marker)
      #expect(lent.copies == 1, "\(lent)")
      #expect(after.copies == 0, "\(after)")
    }
  }
}

/// The decimal digits of a byte, as ASCII.
func decimalDigits(of value: UInt8) -> [UInt8] {
  Array(String(value).utf8)
}

extension Marker {
  /// Part of a marker's key, to unmask the part of it that sits in one read.
  struct Slice {
    let key: ArraySlice<UInt8>
    init(_ marker: Marker, _ range: Range<Int>) { key = marker.key[range] }
    func unmask(in bytes: UnsafeMutableRawBufferPointer) {
      for (offset, byte) in key.enumerated() { bytes[offset] ^= byte }
    }
  }
}
