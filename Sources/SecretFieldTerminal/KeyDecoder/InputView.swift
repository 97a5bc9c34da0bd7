/// The decoder's input as one window lends it: the bytes, and how many from the
/// front the decoding has consumed so far. The consumed ones are removed (and
/// wiped) when the window ends (`SecureBuffer.withUnsafeBytesRemovingPrefix`),
/// so a text run consumed here can still be lent to the field in place.
struct InputView {
  /// Every byte of the input, valid only inside the window.
  let bytes: UnsafeRawBufferPointer
  /// How many bytes from the front are consumed.
  private(set) var consumed = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The unconsumed bytes.
  var front: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[consumed...]) }

  /// How many bytes are not consumed.
  var remaining: Int { bytes.count - consumed }

  var isEmpty: Bool { consumed == bytes.count }

  /// The bytes at `range` of ``front`` as it is now, valid while the window is.
  func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      rebasing: bytes[(consumed + range.lowerBound)..<(consumed + range.upperBound)])
  }

  mutating func consume(_ count: Int) {
    precondition(count >= 0 && count <= remaining, "InputView: consumed past the input")
    consumed += count
  }

  mutating func consumeAll() { consumed = bytes.count }
}
