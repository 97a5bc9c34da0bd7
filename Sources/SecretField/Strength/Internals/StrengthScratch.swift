import SecureMemory

/// Where the estimate keeps its working state: inside the judge's secure
/// buffer, so that nothing derived from the password (its scalars, the
/// entropy of each part, which part was cheapest) is ever in ordinary memory.
///
/// Laid out for ``capacity`` scalars, the most the estimate looks at in
/// detail (as zxcvbn-c, 100): the scalars, a triangle of the cheapest part
/// from each start to each end, their kinds, and per position the cheapest
/// split so far and where its last part begins.
struct StrengthScratch {
  /// The most scalars looked at in detail; past them a password's tail is
  /// counted as a run of the same length (zxcvbn-c's `ZXCVBN_DETAIL_LEN`).
  static let capacity = 100

  /// Parts from each of `count` starts to each end after it.
  static func cellCount(for count: Int) -> Int { count * (count + 1) / 2 }

  static let scalarsOffset = 0
  static let cellsOffset = scalarsOffset + capacity * MemoryLayout<UInt32>.stride
  static let distancesOffset = cellsOffset + cellCount(for: capacity) * MemoryLayout<Float>.stride
  static let previousOffset = distancesOffset + (capacity + 1) * MemoryLayout<Double>.stride
  static let kindsOffset = previousOffset + (capacity + 1) * MemoryLayout<Int16>.stride
  static let pointsOffset = kindsOffset + cellCount(for: capacity)
  /// The bytes the scratch takes, with room to align its start to 8.
  static let byteCount = pointsOffset + capacity + 1 + 8

  let scalars: UnsafeMutablePointer<UInt32>
  let cells: UnsafeMutablePointer<Float>
  let distances: UnsafeMutablePointer<Double>
  let previous: UnsafeMutablePointer<Int16>
  let kinds: UnsafeMutablePointer<UInt8>
  let points: UnsafeMutablePointer<UInt8>

  /// The scratch laid over `bytes`, which hold at least ``byteCount`` bytes.
  init(_ bytes: UnsafeMutableRawBufferPointer) {
    precondition(bytes.count >= Self.byteCount, "StrengthScratch: too small")
    let start = UInt(bitPattern: bytes.baseAddress!)
    let base = UnsafeMutableRawPointer(bitPattern: (start + 7) & ~7)!
    scalars = (base + Self.scalarsOffset).bindMemory(to: UInt32.self, capacity: Self.capacity)
    cells = (base + Self.cellsOffset).bindMemory(
      to: Float.self, capacity: Self.cellCount(for: Self.capacity))
    distances = (base + Self.distancesOffset).bindMemory(
      to: Double.self, capacity: Self.capacity + 1)
    previous = (base + Self.previousOffset).bindMemory(to: Int16.self, capacity: Self.capacity + 1)
    kinds = (base + Self.kindsOffset).bindMemory(
      to: UInt8.self, capacity: Self.cellCount(for: Self.capacity))
    points = (base + Self.pointsOffset).bindMemory(to: UInt8.self, capacity: Self.capacity + 1)
  }

  /// Zeroes what an estimate of `count` scalars used (`sodium_memzero`).
  func wipe(count: Int) {
    let cellCount = Self.cellCount(for: count)
    secureZero(UnsafeMutableRawBufferPointer(start: scalars, count: count * 4))
    secureZero(UnsafeMutableRawBufferPointer(start: cells, count: cellCount * 4))
    secureZero(UnsafeMutableRawBufferPointer(start: distances, count: (count + 1) * 8))
    secureZero(UnsafeMutableRawBufferPointer(start: previous, count: (count + 1) * 2))
    secureZero(UnsafeMutableRawBufferPointer(start: kinds, count: cellCount))
    secureZero(UnsafeMutableRawBufferPointer(start: points, count: count + 1))
  }
}
