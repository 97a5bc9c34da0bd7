import Testing
import SecureMemory

/// Copies a buffer's bytes out into an array. Tests only: an oracle.
func bytes(of buffer: borrowing SecureBuffer) -> [UInt8] {
  buffer.withUnsafeBytes { Array($0) }
}

func makeBuffer(_ bytes: [UInt8]) throws -> SecureBuffer {
  var buffer = try SecureBuffer(capacity: bytes.count)
  try buffer.append(bytes)
  return buffer
}

extension SecureBuffer {
  mutating func append(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw in try append(raw) }
  }

  mutating func replaceSubrange(_ range: Range<Int>, with bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw in try replaceSubrange(range, with: raw) }
  }
}

@Suite("SecureBuffer holds and edits bytes")
struct SecureBufferTests {
  @Test("a new buffer is empty, has at least the capacity asked for, and is fully protected")
  func newBuffer() throws {
    let buffer = try SecureBuffer(capacity: 100)
    let bufferIsEmpty = buffer.isEmpty
    #expect(bufferIsEmpty)
    let bufferCount = buffer.count
    #expect(bufferCount == 0)
    let bufferCapacity = buffer.capacity
    #expect(bufferCapacity >= 100)
    let bufferProtection = buffer.protection
    #expect(bufferProtection == .complete)
    #expect(bytes(of: buffer) == [])
  }

  @Test("bytes copied in come back unchanged")
  func roundTrip() throws {
    let original: [UInt8] = Array(0...255)
    let buffer = try makeBuffer(original)
    let bufferCount = buffer.count
    #expect(bufferCount == 256)
    #expect(bytes(of: buffer) == original)
  }

  struct GrowthCase: CustomTestStringConvertible, Sendable {
    let total: Int
    let step: Int
    var testDescription: String { "\(total) bytes in steps of \(step)" }
  }

  @Test(
    "appending grows the buffer and keeps every byte",
    arguments: [
      GrowthCase(total: 1, step: 1), GrowthCase(total: 4080, step: 1),
      GrowthCase(total: 4081, step: 7),
      GrowthCase(total: 65_536, step: 1000), GrowthCase(total: 1 << 20, step: 65_521),
      GrowthCase(total: 1 << 20, step: 1 << 20),
    ])
  func growth(_ growth: GrowthCase) throws {
    var buffer = try SecureBuffer()
    var oracle: [UInt8] = []
    var next: UInt8 = 0
    while oracle.count < growth.total {
      let piece = (0..<min(growth.step, growth.total - oracle.count)).map { _ in
        next &+= 37
        return next
      }
      try buffer.append(piece)
      oracle += piece
    }
    let bufferCount = buffer.count
    #expect(bufferCount == growth.total)
    let bufferCapacity = buffer.capacity
    #expect(bufferCapacity >= growth.total)
    #expect(bufferCapacity < 2 * growth.total + 8192, "growth is geometric, not wasteful")
    #expect(bytes(of: buffer) == oracle)
    let bufferProtection = buffer.protection
    #expect(bufferProtection == .complete)
  }

  struct ReplaceCase: CustomTestStringConvertible, Sendable {
    let name: String
    let range: Range<Int>
    let replacement: [UInt8]
    var testDescription: String { name }
  }

  @Test(
    "replaceSubrange edits at the start, middle and end",
    arguments: [
      ReplaceCase(name: "insert at start", range: 0..<0, replacement: [9, 9]),
      ReplaceCase(name: "replace start, longer", range: 0..<2, replacement: [7, 7, 7, 7]),
      ReplaceCase(name: "replace middle, same length", range: 3..<5, replacement: [8, 8]),
      ReplaceCase(name: "replace middle, shorter", range: 2..<7, replacement: [6]),
      ReplaceCase(name: "delete middle", range: 4..<6, replacement: []),
      ReplaceCase(name: "replace end", range: 8..<10, replacement: [5, 5, 5]),
      ReplaceCase(name: "append at end", range: 10..<10, replacement: [4]),
      ReplaceCase(name: "replace all", range: 0..<10, replacement: [3]),
      ReplaceCase(
        name: "grow past capacity in the middle", range: 5..<5,
        replacement: Array(repeating: 2, count: 5000)),
    ])
  func replace(_ edit: ReplaceCase) throws {
    let original: [UInt8] = Array(0..<10)
    var buffer = try makeBuffer(original)
    var oracle = original
    try buffer.replaceSubrange(edit.range, with: edit.replacement)
    oracle.replaceSubrange(edit.range, with: edit.replacement)
    #expect(bytes(of: buffer) == oracle)
  }

  @Test("removeSubrange removes and the rest closes up")
  func removeSubrange() throws {
    var buffer = try makeBuffer(Array(0..<10))
    buffer.removeSubrange(2..<5)
    #expect(bytes(of: buffer) == [0, 1, 5, 6, 7, 8, 9])
    buffer.removeSubrange(0..<0)
    #expect(bytes(of: buffer) == [0, 1, 5, 6, 7, 8, 9])
    buffer.removeSubrange(5..<7)
    #expect(bytes(of: buffer) == [0, 1, 5, 6, 7])
  }

  @Test("removeAll wipes and keeps the allocation")
  func removeAll() throws {
    var buffer = try makeBuffer(Array(repeating: 0xAB, count: 5000))
    let capacity = buffer.capacity
    buffer.removeAll()
    let bufferIsEmpty = buffer.isEmpty
    #expect(bufferIsEmpty)
    let bufferCapacity = buffer.capacity
    #expect(bufferCapacity == capacity)
    try buffer.append([1])
    #expect(bytes(of: buffer) == [1])
  }

  @Test("reserveCapacity grows once and keeps the bytes")
  func reserve() throws {
    var buffer = try makeBuffer([1, 2, 3])
    try buffer.reserveCapacity(100_000)
    let bufferCapacity = buffer.capacity
    #expect(bufferCapacity >= 100_000)
    #expect(bytes(of: buffer) == [1, 2, 3])
  }

  @Test("withUnsafeMutableBytes changes bytes in place")
  func mutableWindow() throws {
    var buffer = try makeBuffer([1, 2, 3])
    buffer.withUnsafeMutableBytes { $0[1] = 42 }
    #expect(bytes(of: buffer) == [1, 42, 3])
  }

  @Test("read windows nest")
  func nestedWindows() throws {
    let buffer = try makeBuffer([1, 2, 3])
    let sum = buffer.withUnsafeBytes { outer in
      buffer.withUnsafeBytes { inner in
        Int(outer[0]) + Int(inner[2])
      } + Int(outer[1])
    }
    #expect(sum == 6)
    // After both windows closed, a new one still opens and reads.
    #expect(bytes(of: buffer) == [1, 2, 3])
  }

  final class Shared: Sendable {
    let buffer: SecureBuffer
    init(_ buffer: consuming SecureBuffer) { self.buffer = buffer }
  }

  @Test("concurrent readers from many tasks all read the bytes")
  func concurrentWindows() async throws {
    let expected: [UInt8] = Array(0..<200)
    let shared = Shared(try makeBuffer(expected))
    let sums = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<16 {
        group.addTask {
          var total = 0
          for _ in 0..<500 {
            total += shared.buffer.withUnsafeBytes { window in
              shared.buffer.withUnsafeBytes { nested in
                window.reduce(0) { $0 + Int($1) } - Int(nested[0])
              }
            }
          }
          return total
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    let one = expected.reduce(0) { $0 + Int($1) }
    #expect(sums == Array(repeating: one * 500, count: 16))
  }

  @Test("constantTimeEquals: equal bytes, different bytes, different lengths, empty")
  func constantTimeEquals() throws {
    let a = try makeBuffer(Array("correct horse".utf8))
    let b = try makeBuffer(Array("correct horse".utf8))
    let c = try makeBuffer(Array("correct house".utf8))
    let d = try makeBuffer(Array("correct horse!".utf8))
    let empty1 = try SecureBuffer()
    let empty2 = try SecureBuffer()
    let results = [
      a.constantTimeEquals(b), a.constantTimeEquals(a), a.constantTimeEquals(c),
      a.constantTimeEquals(d), d.constantTimeEquals(a), empty1.constantTimeEquals(empty2),
      empty1.constantTimeEquals(a),
    ]
    #expect(results == [true, true, false, false, false, true, false])
  }
}
