/// The fuzzer's bytes, read front to back as choices: a number, a byte, a run
/// of bytes. Past the end every read gives zeros, so any input is a valid
/// program for a target.
public struct FuzzInput {
  let bytes: UnsafeRawBufferPointer
  /// Where the next read starts.
  public private(set) var offset = 0

  /// Reads `bytes`, which must outlive the reader.
  public init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// True once every byte was read.
  public var isAtEnd: Bool { offset >= bytes.count }

  /// The next byte, or 0 past the end.
  public mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number in `range`, from the next byte.
  public mutating func number(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(byte()) % (range.count)
  }

  /// Up to `count` next bytes.
  public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
    let end = min(bytes.count, offset + max(0, count))
    defer { offset = max(offset, end) }
    guard offset < end else { return [] }
    return Array(bytes[offset..<end])[...]
  }

  /// Every byte not read yet.
  public mutating func rest() -> ArraySlice<UInt8> {
    take(bytes.count - offset)
  }
}

/// Stops the process with `message` when `condition` is false: libFuzzer saves
/// the input that did it as a crash. A `precondition` that stays in release
/// builds, with the broken invariant named.
public func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String
) {
  if !condition() { fatalError("invariant broken: \(message())") }
}
