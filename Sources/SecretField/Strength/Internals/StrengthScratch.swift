import SecureMemory

/// Where the estimate keeps its working state: inside the judge's secure
/// buffer, so that nothing derived from the password (its scalars, the
/// entropy of each part, which part was cheapest) is ever in ordinary memory.
///
/// Laid out for ``capacity`` scalars (at most ``largestCapacity``, the most
/// the estimate looks at in detail): the scalars, a triangle of the cheapest
/// part from each start to each end, their kinds, and per position the
/// cheapest split so far and where its last part begins.
struct StrengthScratch {
  /// The most scalars looked at in detail; past them a password's tail is
  /// counted as a run of the same length (zxcvbn-c's `ZXCVBN_DETAIL_LEN`).
  static let largestCapacity = 100
  /// The most scalars a one-page scratch holds: a keystroke's judgement of a
  /// short password opens one page, not seven (about 1.9 µs less a
  /// judgement, measured with the field's window).
  static let smallCapacity = 32

  /// Parts from each of `count` starts to each end after it.
  static func cellCount(for count: Int) -> Int { count * (count + 1) / 2 }

  /// The bytes a scratch for `capacity` scalars takes, with room to align its
  /// start to 8.
  static func byteCount(for capacity: Int) -> Int {
    Layout(capacity: capacity).end + 8
  }

  /// Where each part lies, in bytes from the start.
  private struct Layout {
    let scalars = 0
    let cells: Int
    let distances: Int
    let previous: Int
    let kinds: Int
    let points: Int
    let end: Int

    init(capacity: Int) {
      let cellCount = StrengthScratch.cellCount(for: capacity)
      cells = scalars + capacity * MemoryLayout<UInt32>.stride
      distances = cells + cellCount * MemoryLayout<Float>.stride
      previous = distances + (capacity + 1) * MemoryLayout<Double>.stride
      kinds = previous + (capacity + 1) * MemoryLayout<Int16>.stride
      points = kinds + cellCount
      end = points + capacity + 1
    }
  }

  /// The most scalars this scratch holds.
  let capacity: Int
  let scalars: UnsafeMutablePointer<UInt32>
  let cells: UnsafeMutablePointer<Float>
  let distances: UnsafeMutablePointer<Double>
  let previous: UnsafeMutablePointer<Int16>
  let kinds: UnsafeMutablePointer<UInt8>
  let points: UnsafeMutablePointer<UInt8>

  /// A scratch for `capacity` scalars laid over `bytes`, which hold at least
  /// ``byteCount(for:)`` bytes.
  init(_ bytes: UnsafeMutableRawBufferPointer, capacity: Int) {
    precondition(bytes.count >= Self.byteCount(for: capacity), "StrengthScratch: too small")
    let layout = Layout(capacity: capacity)
    let cellCount = Self.cellCount(for: capacity)
    let start = UInt(bitPattern: bytes.baseAddress!)
    let base = UnsafeMutableRawPointer(bitPattern: (start + 7) & ~7)!
    self.capacity = capacity
    scalars = (base + layout.scalars).bindMemory(to: UInt32.self, capacity: capacity)
    cells = (base + layout.cells).bindMemory(to: Float.self, capacity: cellCount)
    distances = (base + layout.distances).bindMemory(to: Double.self, capacity: capacity + 1)
    previous = (base + layout.previous).bindMemory(to: Int16.self, capacity: capacity + 1)
    kinds = (base + layout.kinds).bindMemory(to: UInt8.self, capacity: cellCount)
    points = (base + layout.points).bindMemory(to: UInt8.self, capacity: capacity + 1)
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
