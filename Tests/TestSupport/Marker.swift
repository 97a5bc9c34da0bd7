/// A secret test value whose plain bytes exist only where a test writes them.
///
/// The marker is kept as two random halves, `masked` and `key`; its plain bytes
/// are `masked ^ key`. Neither half contains the plain bytes, so a memory scan
/// that finds them has found a copy the code under test made. The plain form is
/// produced only by ``unmask(in:)``, in place, inside the buffer under test, or by
/// ``plainBytesForControl()``, on purpose, to show the scan can find a copy.
public struct Marker: Sendable {
  /// The plain bytes XOR ``key``: random-looking, never the marker.
  public let masked: [UInt8]
  /// The mask: random bytes, never zero.
  public let key: [UInt8]

  /// The marker's length in bytes.
  public var count: Int { masked.count }

  /// A new random marker of `count` bytes (at least 16, so a random match in
  /// memory is out of the question).
  public init(count: Int = 24, alphabet: MarkerAlphabet = .printableASCII) {
    precondition(count >= 16)
    precondition(
      count >= alphabet.requiredBytes.count, "Marker: too short for the bytes it must hold")
    var generator = SystemRandomNumberGenerator()
    var masked: [UInt8] = []
    var key: [UInt8] = []
    var missing: Set<UInt8>
    repeat {
      masked = []
      key = []
      missing = alphabet.requiredBytes
      for _ in 0..<count {
        let plain = alphabet.randomByte(using: &generator)
        missing.remove(plain)
        let k = UInt8.random(in: 1...255, using: &generator)
        masked.append(plain ^ k)
        key.append(k)
      }
    } while !missing.isEmpty
    self.masked = masked
    self.key = key
  }

  /// A marker for secret bytes that already exist where the code under test
  /// made them (a derived key, say), read inside that buffer's window.
  ///
  /// Each byte is read into a register, masked at once with a fresh random key
  /// byte, and stored masked: the plain bytes are never copied out of `bytes`.
  public init(maskingBytesIn bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count >= 16, "Marker: at least 16 bytes, so a random match is impossible")
    var generator = SystemRandomNumberGenerator()
    var masked: [UInt8] = []
    var key: [UInt8] = []
    masked.reserveCapacity(bytes.count)
    key.reserveCapacity(bytes.count)
    for index in 0..<bytes.count {
      let k = UInt8.random(in: 1...255, using: &generator)
      masked.append(bytes[index] ^ k)
      key.append(k)
    }
    self.init(masked: masked, key: key)
  }

  private init(masked: [UInt8], key: [UInt8]) {
    self.masked = masked
    self.key = key
  }

  /// The marker as an encoding writes it (percent- or plus-escaped, say), still
  /// masked, so a scan can look for that form too.
  ///
  /// Each plain byte is unmasked in a register, handed to `encode`, and its
  /// encoding masked again with fresh key bytes: the encoded form never exists
  /// whole outside what the code under test writes.
  public func encoded(by encode: (UInt8) -> [UInt8]) -> Marker {
    var generator = SystemRandomNumberGenerator()
    var encodedMasked: [UInt8] = []
    var encodedKey: [UInt8] = []
    for index in 0..<count {
      for byte in encode(masked[index] ^ key[index]) {
        let k = UInt8.random(in: 1...255, using: &generator)
        encodedMasked.append(byte ^ k)
        encodedKey.append(k)
      }
    }
    return Marker(masked: encodedMasked, key: encodedKey)
  }

  /// True when `bytes` hold exactly the marker; compares without forming the
  /// plain marker outside `bytes`.
  public func isEqual(to bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == count, let base = bytes.baseAddress else { return false }
    return matches(base, at: 0)
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
  /// Letters and digits with `%`, `+` and space, and CR and LF when
  /// `lineBreaks`, each sure to occur, so the marker's percent- and
  /// plus-escaped forms differ from the plain one.
  case needingEscapes(lineBreaks: Bool)

  /// Bytes every marker of this alphabet holds at least once.
  var requiredBytes: Set<UInt8> {
    switch self {
    case .printableASCII: []
    case .needingEscapes(let lineBreaks): Set(Self.escapedBytes(lineBreaks: lineBreaks))
    }
  }

  private static func escapedBytes(lineBreaks: Bool) -> [UInt8] {
    Array("%+ ".utf8) + (lineBreaks ? [0x0D, 0x0A] : [])
  }

  private static let alphanumerics = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

  func randomByte(using generator: inout some RandomNumberGenerator) -> UInt8 {
    switch self {
    case .printableASCII:
      return UInt8.random(in: 0x21...0x7E, using: &generator)
    case .needingEscapes(let lineBreaks):
      // One byte in three from the escaped set, so each turns up soon.
      let pool =
        UInt8.random(in: 0..<3, using: &generator) == 0
        ? Self.escapedBytes(lineBreaks: lineBreaks) : Self.alphanumerics
      return pool.randomElement(using: &generator)!
    }
  }
}
