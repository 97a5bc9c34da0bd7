/// A secret test value whose plain bytes exist only where a test writes them.
///
/// The marker is kept as two random halves, `masked` and `key`; its plain bytes
/// are `masked ^ key`. Neither half contains the plain bytes, so a memory scan
/// that finds them has found a copy the code under test made. The plain form is
/// produced only by ``unmask(in:)``, in place, inside the buffer under test, or by
/// ``plainBytesForControl()``, on purpose, to show the scan can find a copy.
public struct Marker: Sendable {
  public let masked: [UInt8]
  public let key: [UInt8]

  public var count: Int { masked.count }

  /// A new random marker of `count` bytes (at least 16, so a random match in
  /// memory is out of the question).
  public init(count: Int = 24, alphabet: MarkerAlphabet = .printableASCII) {
    precondition(count >= 16)
    var generator = SystemRandomNumberGenerator()
    var masked: [UInt8] = []
    var key: [UInt8] = []
    for _ in 0..<count {
      let plain = alphabet.randomByte(using: &generator)
      let k = UInt8.random(in: 1...255, using: &generator)
      masked.append(plain ^ k)
      key.append(k)
    }
    self.masked = masked
    self.key = key
  }

  /// Writes the masked form into `bytes` (which must hold `count` bytes).
  public func writeMasked(into bytes: UnsafeMutableRawBufferPointer) {
    precondition(bytes.count >= count)
    for index in 0..<count { bytes[index] = masked[index] }
  }

  /// Turns the masked form in `bytes` into the plain marker, in place.
  public func unmask(in bytes: UnsafeMutableRawBufferPointer) {
    precondition(bytes.count >= count)
    for index in 0..<count { bytes[index] ^= key[index] }
  }

  /// The plain bytes in an ordinary array: for controls only, which must find it.
  public func plainBytesForControl() -> [UInt8] {
    zip(masked, key).map { $0 ^ $1 }
  }

  /// True when `bytes` at `offset` hold the plain marker; compares without ever
  /// forming the plain marker outside `bytes`.
  func matches(_ bytes: UnsafeRawPointer, at offset: Int) -> Bool {
    for index in 0..<count
    where bytes.load(fromByteOffset: offset + index, as: UInt8.self) ^ key[index] != masked[index] {
      return false
    }
    return true
  }
}

/// The bytes a marker is drawn from.
public enum MarkerAlphabet: Sendable {
  /// `!` to `~`: what a user can type on any keyboard.
  case printableASCII

  func randomByte(using generator: inout some RandomNumberGenerator) -> UInt8 {
    switch self {
    case .printableASCII: UInt8.random(in: 0x21...0x7E, using: &generator)
    }
  }
}
